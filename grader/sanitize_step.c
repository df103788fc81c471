/* sanitize_step.c: memcheck and initcheck at the end of make check
 * (sanitize_step.h). */
#define _POSIX_C_SOURCE 200809L
#include "sanitize_step.h"

#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A tool gets this long for its few small cases; under memcheck a case of
 * chapter 05 takes well under a second. A hung kernel is the check's to
 * report, not this step's. */
#define TOOL_LIMIT_S 120

/* The text after compute-sanitizer's "=========" prefix and its indent. */
static const char *tool_text(const char *line)
{
    if (strncmp(line, "=========", 9) != 0)
        return NULL;
    line += 9;
    while (*line == ' ' || *line == '\t')
        line++;
    return line;
}

static void copy_trimmed(char *out, size_t len, const char *text)
{
    snprintf(out, len, "%s", text);
    out[strcspn(out, "\r\n")] = '\0';
}

/* "at add_naive_kernel(const float *, ...)+0x70 in /x/01_naive.cu:14" ->
 * where "add_naive_kernel in 01_naive.cu:14", file "01_naive". */
static void parse_at(const char *text, mw_sanitize_finding *f)
{
    char name[160] = "";
    size_t n = strcspn(text + 3, "(+ ");
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), text + 3);
    const char *in = strstr(text, " in ");
    if (!in) {
        snprintf(f->where, sizeof f->where, "%s", name);
        return;
    }
    const char *path = in + 4, *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char loc[200];
    copy_trimmed(loc, sizeof loc, base);
    snprintf(f->where, sizeof f->where, "%s in %s", name, loc);
    const char *dot = strstr(loc, ".cu:");
    if (dot)
        snprintf(f->file, sizeof f->file, "%.*s", (int)(dot - loc), loc);
}

/* Tool lines that are not findings: its banner and its summaries. */
static int is_bookkeeping(const char *text)
{
    return strncmp(text, "COMPUTE-SANITIZER", 17) == 0 || strncmp(text, "ERROR SUMMARY", 13) == 0 ||
           strncmp(text, "Program hit", 11) == 0 || strncmp(text, "Saved host backtrace", 20) == 0 ||
           strncmp(text, "Host Frame", 10) == 0 || strncmp(text, "Target application", 18) == 0 ||
           *text == '\0' || *text == '\n';
}

int mw_sanitize_parse(const char *log, mw_sanitize_finding *f)
{
    memset(f, 0, sizeof *f);
    FILE *fp = fopen(log, "r");
    if (!fp)
        return 0;
    char line[1024];
    int found = 0;
    while (fgets(line, sizeof line, fp)) {
        const char *text = tool_text(line);
        if (!found) {
            if (text && !is_bookkeeping(text) && line[9] == ' ' && line[10] != ' ') {
                copy_trimmed(f->kind, sizeof f->kind, text);
                found = 1;
            }
            continue;
        }
        if (text && strncmp(text, "at ", 3) == 0 && !f->where[0])
            parse_at(text, f);
        else if (text && strncmp(text, "by thread ", 10) == 0 && !f->who[0])
            copy_trimmed(f->who, sizeof f->who, text + 3);
        else if (text && (strstr(text, "Address ") || strstr(text, "Access at ") ||
                          strstr(text, " bytes after") || strstr(text, " bytes before")) &&
                 !f->address[0])
            copy_trimmed(f->address, sizeof f->address, text);
        else if (!text && (strncmp(line, "  PASS", 6) == 0 || strncmp(line, "  FAIL", 6) == 0 ||
                           strncmp(line, "  ERROR", 7) == 0)) {
            /* The case's own line comes after the finding it caused. */
            const char *rest = line + 2 + strcspn(line + 2, " ");
            copy_trimmed(f->during, sizeof f->during, rest + strspn(rest, " "));
            break;
        }
    }
    fclose(fp);
    return found;
}

/* Runs argv with its output into log, in a process group of its own that
 * is killed past limit_s. Returns its exit code, or -1 when it did not
 * finish. */
static int run_logged(char *const argv[], const char *log, int limit_s)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        FILE *out = freopen(log, "w", stdout);
        if (!out || dup2(fileno(stdout), 2) < 0)
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid);
    return mw_wait_group(pid, limit_s);
}

static const char *tool_hint(const char *tool)
{
    return strcmp(tool, "memcheck") == 0
               ? "an access outside every buffer, seen with each view allocated exactly: the "
                 "check's guard bands hid it (a read past the end whose value is never used "
                 "reads the guard); bound every read, not only the writes"
               : "a read of device memory nothing wrote (an output or workspace read before it "
                 "is written, or shared memory's leftovers): write it first, or do not read it";
}

static void print_finding(const char *tool, const mw_sanitize_finding *f, int width)
{
    printf("  %-5s %-*s %s: %s\n", "FAIL", width, f->file[0] ? f->file : "sanitizer", tool,
           f->during[0] ? f->during : "the smallest cases");
    printf("        %s%s%s%s%s\n", f->kind, f->where[0] ? " at " : "", f->where,
           f->who[0] ? ", by " : "", f->who);
    if (f->address[0])
        printf("        %s\n", f->address);
    printf("        hint: %s\n", tool_hint(tool));
}

/* One tool over the smallest cases. */
static void run_tool(const char *sanitizer, const char *tool, const mw_sanitize_target *opt,
                     int *passed, int *failed, int width)
{
    const char *tmp = getenv("TMPDIR");
    char log[4096], seed[32], cases[16];
    snprintf(log, sizeof log, "%s/mw-sanitize-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(log);
    if (fd < 0) {
        printf("note: %s not run: no temporary file for its log\n", tool);
        return;
    }
    close(fd);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)opt->seed);
    snprintf(cases, sizeof cases, "%d", MW_SANITIZE_CASES);
    char *argv[32];
    int n = 0;
    const char *fixed[] = {sanitizer, "--tool", tool, "--error-exitcode", "10", "--print-limit",
                           "10", opt->self, "check", "--lib-dir", opt->lib_dir, "--seed", seed,
                           "--small", "--smallest-first", "--first-cases", cases, "--no-fork",
                           "--exact-views"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        argv[n++] = (char *)fixed[i];
    if (opt->src_label) {
        argv[n++] = "--label";
        argv[n++] = (char *)opt->src_label;
    }
    if (opt->only_version) {
        argv[n++] = "--version";
        argv[n++] = (char *)opt->only_version;
    }
    argv[n] = NULL;
    int rc = run_logged(argv, log, TOOL_LIMIT_S);
    mw_sanitize_finding f;
    if (mw_sanitize_parse(log, &f)) {
        print_finding(tool, &f, width);
        (*failed)++;
    } else if (rc == 0 || rc == 1 || rc == 77) {
        printf("  %-5s %-*s %s: the %d smallest cases of each version, views allocated "
               "exactly\n",
               "PASS", width, "sanitizer", tool, MW_SANITIZE_CASES);
        (*passed)++;
    } else {
        printf("note: %s could not judge the smallest cases (%s): make sanitize runs it "
               "with its whole report\n",
               tool, rc < 0 ? "not done in 120 s" : "they failed under it");
    }
    unlink(log);
}

void mw_sanitize_step(const mw_sanitize_target *target, int *passed, int *failed,
                      int version_width)
{
    char sanitizer[4096];
    if (mw_which("compute-sanitizer", sanitizer, sizeof sanitizer) != 0) {
        printf("note: compute-sanitizer not found (on the PATH or in /usr/local/cuda/bin), so "
               "memcheck and initcheck did not run (they ship with the CUDA toolkit: put its "
               "bin/ on the PATH)\n");
        return;
    }
    run_tool(sanitizer, "memcheck", target, passed, failed, version_width);
    run_tool(sanitizer, "initcheck", target, passed, failed, version_width);
}
