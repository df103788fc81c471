/* cases_file.c: parse extra cases. */
#define _POSIX_C_SOURCE 200809L
#include "cases_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each generator's word in a cases file, by its value in rng.h's enum: the
 * parser and its error message both read this one list. */
static const char *const gen_words[] = {
    [MW_GEN_UNIFORM] = "uniform",     [MW_GEN_SPECIAL] = "special",
    [MW_GEN_SMALLINT] = "smallint",   [MW_GEN_NEGINF] = "neginf",
    [MW_GEN_RARE_NAN] = "rarenan",    [MW_GEN_LOGPROB] = "logprob",
    [MW_GEN_DOMINANT] = "dominant",   [MW_GEN_MASKED] = "masked",
    [MW_GEN_TAIL] = "tail",           [MW_GEN_LONE] = "lone",
    [MW_GEN_LONE_WIDE] = "lonewide",  [MW_GEN_OPPOSED] = "opposed",
    [MW_GEN_NAN_THIRD] = "nanthird",  [MW_GEN_OVERFLOW] = "overflow",
    [MW_GEN_LONE_NAN] = "lonenan",
};
#define GEN_WORDS ((int)(sizeof gen_words / sizeof gen_words[0]))

static int gen_of(const char *word)
{
    for (int g = 0; g < GEN_WORDS; g++)
        if (gen_words[g] && strcmp(word, gen_words[g]) == 0)
            return g;
    return -1;
}

/* The words joined by '|', as the error message lists them. */
static void gen_word_list(char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int g = 0; g < GEN_WORDS && used < len; g++)
        if (gen_words[g])
            used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "|" : "", gen_words[g]);
}

/* The optional words after the fixed fields: "d3=N" (a fourth dimension,
 * chapter 05's head size) and "op=K" (the case's operation, chapter 05's
 * causal flag). Returns -1 on anything else. */
static int parse_extras(const char *rest, mw_case *c)
{
    char word[64];
    int used;
    while (sscanf(rest, "%63s%n", word, &used) == 1) {
        unsigned long long v;
        char end;
        if (sscanf(word, "d3=%llu%c", &v, &end) == 1)
            c->dim[3] = (size_t)v;
        else if (sscanf(word, "op=%llu%c", &v, &end) == 1 && v < 16)
            c->op = (int)v;
        else
            return -1;
        rest += used;
    }
    return 0;
}

/* "case GROUP d0 d1 d2 o0 o1 o2 o3 GEN SCALE SAMPLED A S [d3=N] [op=K]" into c. */
static int parse_case(const char *line, mw_case *c, char *group, size_t glen)
{
    char gen[32], fmt[128];
    unsigned long long d[3], o[4];
    float scale, a, s;
    int sampled, used = 0;
    snprintf(fmt, sizeof fmt,
             "case %%%zus %%llu %%llu %%llu %%llu %%llu %%llu %%llu %%31s %%f %%d %%f %%f%%n",
             glen - 1);
    int got = sscanf(line, fmt, group, &d[0], &d[1], &d[2], &o[0], &o[1], &o[2], &o[3], gen,
                     &scale, &sampled, &a, &s, &used);
    if (got != 13 || gen_of(gen) < 0)
        return -1;
    memset(c, 0, sizeof *c);
    if (parse_extras(line + used, c) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        c->dim[i] = (size_t)d[i];
    for (int i = 0; i < 4; i++)
        c->offset[i] = (size_t)o[i];
    c->gen = gen_of(gen);
    c->scale = scale;
    c->sampled = sampled;
    c->arg[0] = a;
    c->arg[1] = s;
    return 0;
}

int mw_cases_file_load(const char *path, mw_cases_file *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, errlen, "%s: cannot read it", path);
        return -1;
    }
    char line[1024];
    int lineno = 0, cap = 0;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == '\0')
            continue;
        unsigned long long seed;
        if (sscanf(p, "seed %llu", &seed) == 1) {
            f->seed = seed;
            f->have_seed = 1;
            continue;
        }
        char group[64];
        mw_case c;
        if (strncmp(p, "case ", 5) != 0 || parse_case(p, &c, group, sizeof group) != 0) {
            char words[256];
            gen_word_list(words, sizeof words);
            snprintf(err, errlen,
                     "%s:%d: expected 'seed N' or 'case GROUP d0 d1 d2 o0 o1 o2 o3 "
                     "%s SCALE SAMPLED A S [d3=N] [op=K]'",
                     path, lineno, words);
            fclose(fp);
            mw_cases_file_free(f);
            return -1;
        }
        if (f->ncases == cap) {
            cap = cap ? 2 * cap : 8;
            mw_case *grown = realloc(f->cases, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            f->cases = grown;
        }
        c.group = strdup(group);
        f->cases[f->ncases++] = c;
    }
    fclose(fp);
    return 0;
}

void mw_cases_file_free(mw_cases_file *f)
{
    for (int i = 0; i < f->ncases; i++)
        free((char *)f->cases[i].group);
    free(f->cases);
    f->cases = NULL;
    f->ncases = 0;
}
