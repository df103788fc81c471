/* test_batch.c: unit tests of the batch grader's pure-C parts: the rubric,
 * the hidden-cases file, and the files it writes (score.csv round trip for
 * resuming, gradebook CSV quoting, results.json escaping). */
#define _POSIX_C_SOURCE 200809L
#include "tap.h"

#include "cases_file.h"
#include "gradebook.h"
#include "rubric.h"

#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/mw-test-batch-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    fputs(text, fp);
    fclose(fp);
    return path;
}

static char *read_file(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return NULL;
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

static void test_rubric(void)
{
    mw_rubric r;
    char err[256];
    const char *path = write_file("rubric", "# comment\n"
                                            "group edge 10\n"
                                            "  group tail 15   # trailing\n"
                                            "sanitize 5\n"
                                            "performance 20 02_fast 268435456 1.2\n");
    ok(mw_rubric_load(path, &r, err, sizeof err) == 0, "a rubric loads");
    is_int(r.ngroups, 2, "two groups");
    is_str(r.group[1], "tail", "group names");
    is_double(r.group_points[1], 15, 0, "group points");
    is_double(r.sanitize_points, 5, 0, "sanitize points");
    is_str(r.perf_version, "02_fast", "performance version");
    is_double(r.perf_size, 268435456, 0, "performance size");
    is_double(r.perf_full_at, 1.2, 1e-12, "full points threshold");

    mw_group_tally g = {"tail", 3, 4};
    double max;
    is_double(mw_rubric_group_score(&r, &g, &max), 11.25, 1e-12, "3 of 4 cases: 3/4 of the points");
    is_double(max, 15, 0, "the group's maximum");
    mw_group_tally unknown = {"hidden", 2, 2};
    is_double(mw_rubric_group_score(&r, &unknown, &max), 0, 0, "a group the rubric lacks: 0");
    is_double(max, 0, 0, "and no maximum");

    is_double(mw_rubric_perf_score(&r, 1, 1.1, 1.0, ""), 20, 1e-12, "t <= 1.2 t_ref: full points");
    is_double(mw_rubric_perf_score(&r, 1, 2.4, 1.0, ""), 10, 1e-12, "t = 2.4 t_ref: half");
    is_double(mw_rubric_perf_score(&r, 0, 1.0, 1.0, ""), 0, 0, "not every case passed: 0");
    is_double(mw_rubric_perf_score(&r, 1, 0.5, 1.0, "side-stream"), 0, 0, "flagged: 0");
    is_double(mw_rubric_perf_score(&r, 1, NAN, 1.0, ""), 0, 0, "not timed: 0");

    path = write_file("bad-rubric", "group edge 10\nperformance 20 02_fast 0 1.2\n");
    ok(mw_rubric_load(path, &r, err, sizeof err) != 0, "a bad line is refused");
    ok(strstr(err, "bad-rubric:2:") != NULL, "and named by its line");
}

static void test_cases_file(void)
{
    mw_cases_file f;
    char err[256];
    const char *path =
        write_file("hidden.cases", "seed 777\n"
                                   "case hidden 4097 0 0 1 2 3 0 special 1 0 1.5 -0.75\n"
                                   "case hidden 2147483651 0 0 0 0 0 0 uniform 1 1 0 0\n");
    ok(mw_cases_file_load(path, &f, err, sizeof err) == 0, "a hidden cases file loads");
    ok(f.have_seed && f.seed == 777, "its seed");
    is_int(f.ncases, 2, "two cases");
    is_str(f.cases[0].group, "hidden", "group");
    is_int((long long)f.cases[0].dim[0], 4097, "size");
    is_int((long long)f.cases[0].offset[2], 3, "offsets");
    is_int(f.cases[0].gen, MW_GEN_SPECIAL, "generator");
    is_double(f.cases[0].arg[1], -0.75, 0, "arguments");
    is_int(f.cases[1].sampled, 1, "sampled flag");
    mw_cases_file_free(&f);
    path = write_file("bad.cases", "seed 1\ncase hidden 12 0 0 0 0 0 0 gaussian 1 0 0 0\n");
    ok(mw_cases_file_load(path, &f, err, sizeof err) != 0, "an unknown generator is refused");
    ok(strstr(err, "bad.cases:2:") != NULL, "and named by its line");
}

static void sample_student(mw_student *s, const char *name)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->status, sizeof s->status, "02_fast does not compile; \"quoted\", commas");
    s->ngroups = 2;
    snprintf(s->groups[0].name, sizeof s->groups[0].name, "edge");
    snprintf(s->groups[1].name, sizeof s->groups[1].name, "hidden");
    s->groups[0] = (mw_group_tally){"edge", 4, 4};
    s->groups[1] = (mw_group_tally){"hidden", 1, 2};
    s->group_score[0] = 10;
    s->group_max[0] = 10;
    s->group_score[1] = 5;
    s->group_max[1] = 10;
    s->sanitize_score = 0;
    s->sanitize_max = 10;
    s->perf_max = 20;
    s->t_student = 1.25;
    s->t_ref = 1.0;
    s->t_lib = NAN;
    snprintf(s->hidden_group, sizeof s->hidden_group, "hidden");
    s->ncases = 2;
    s->cases = calloc(2, sizeof *s->cases);
    s->cases[0] = (mw_case_result){"01_naive", "edge", "n=1", "pass", NULL};
    s->cases[1] = (mw_case_result){"02_fast", "hidden", "n=4097", "fail",
                                   strdup("[3] got \"nan\"\\ \x01 \xc3\xa9 | hint: tail")};
    mw_student_total(s);
}

static void test_outputs(void)
{
    mw_student s, back;
    sample_student(&s, "o'brien, pat");
    is_double(s.total, 15, 0, "total adds the parts");
    is_double(s.max, 50, 0, "max adds the parts");

    char path[256];
    snprintf(path, sizeof path, "%s/score.csv", dir);
    ok(mw_write_score(path, &s) == 0, "score.csv written");
    ok(mw_read_score(path, &back) == 0, "score.csv read back (what resume uses)");
    is_str(back.name, s.name, "the name survives commas and quotes");
    is_str(back.status, s.status, "the status survives quotes");
    is_double(back.total, 15, 0, "total survives");
    is_double(back.group_score[1], 5, 0, "group points survive");
    is_double(back.group_max[1], 10, 0, "group maxima survive");
    is_double(back.t_student, 1.25, 1e-12, "times survive");
    ok(isnan(back.t_lib), "an unknown time stays unknown");

    mw_rubric r = {0};
    r.ngroups = 2;
    snprintf(r.group[0], sizeof r.group[0], "edge");
    snprintf(r.group[1], sizeof r.group[1], "hidden");
    mw_student class[2];
    class[0] = back;
    sample_student(&class[1], "adam");
    snprintf(path, sizeof path, "%s/gradebook.csv", dir);
    ok(mw_write_gradebook(path, class, 2, &r) == 0, "gradebook written");
    char *text = read_file(path);
    ok(text && strncmp(text, "student,total,max,edge,hidden,sanitize,performance,", 50) == 0,
       "gradebook header: one column per rubric group");
    ok(text && strstr(text, "\nadam,") && strstr(text, "\"o'brien, pat\",") &&
           strstr(text, "\nadam,") < strstr(text, "\"o'brien"),
       "rows sorted by name, commas quoted");
    ok(text && strstr(text, "\"02_fast does not compile; \"\"quoted\"\", commas\""),
       "quotes doubled inside a quoted field");
    mw_student_free(&class[1]);

    snprintf(path, sizeof path, "%s/results.json", dir);
    ok(mw_write_results_json(path, &s) == 0, "results.json written");
    text = read_file(path);
    ok(text && strstr(text, "\\\"nan\\\"\\\\ \\u0001 \\u00c3\\u00a9"),
       "JSON escapes quotes, backslashes, control and non-ASCII bytes");
    ok(text && strstr(text, "\"visibility\": \"after_published\""), "hidden group shown after publication");
    ok(text && strstr(text, "\"leaderboard\""), "a leaderboard entry");
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "perl -MJSON::PP -e 'local $/; open F, \"%s\"; my $j = decode_json(<F>); "
             "exit(!($j->{score} == 15 && @{$j->{tests}} == 4))'",
             path);
    ok(system(cmd) == 0, "results.json parses as JSON with the score and 4 tests");

    snprintf(path, sizeof path, "%s/report.md", dir);
    ok(mw_write_report(path, &s, "01-vector-add") == 0, "report.md written");
    text = read_file(path);
    ok(text && strstr(text, "**15.0 of 50.0 points.**"), "report leads with the score");
    ok(text && strstr(text, "(hidden case)") && !strstr(text, "n=4097"),
       "a hidden case's shape and diagnostics stay hidden");
    mw_student_free(&s);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    test_rubric();
    test_cases_file();
    test_outputs();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return done_testing();
}
