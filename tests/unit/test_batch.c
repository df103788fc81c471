/* test_batch.c: unit tests of the batch grader's pure-C parts: the rubric,
 * the hidden-cases file, the files it writes (score.csv round trip for
 * resuming, gradebook CSV quoting, results.json escaping), and the layouts
 * of a submissions folder (Canvas names, archives' listings, which entries
 * may be unpacked), and how a step is waited for (grader/proc.c): its exit
 * code, its time limit, what it leaves running in its group. */
#define _POSIX_C_SOURCE 200809L
#include "tap.h"

#include "batch_layout.h"
#include "cases_file.h"
#include "gradebook.h"
#include "proc.h"
#include "rubric.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
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
    mw_group_tally huge = {"tail", 0, 0};
    const char *statuses[] = {"pass", "skip", "fail", "todo", "error", "pass"};
    for (int i = 0; i < 6; i++)
        mw_rubric_tally(&huge, statuses[i]);
    is_int(huge.total, 5, "a case skipped for lack of memory counts in no tally");
    is_int(huge.passed, 2, "passes counted; fail, todo and error count against");

    is_double(mw_rubric_perf_score(&r, 1, 1.1, 1.0, ""), 20, 1e-12, "t <= 1.2 t_ref: full points");
    is_double(mw_rubric_perf_score(&r, 1, 2.4, 1.0, ""), 10, 1e-12, "t = 2.4 t_ref: half");
    is_double(mw_rubric_perf_score(&r, 0, 1.0, 1.0, ""), 0, 0, "not every case passed: 0");
    is_double(mw_rubric_perf_score(&r, 1, 0.5, 1.0, "side-stream"), 0, 0, "flagged: 0");
    is_double(mw_rubric_perf_score(&r, 1, NAN, 1.0, ""), 0, 0, "not timed: 0");

    path = write_file("bad-rubric", "group edge 10\nperformance 20 02_fast 0 1.2\n");
    ok(mw_rubric_load(path, &r, err, sizeof err) != 0, "a bad line is refused");
    ok(strstr(err, "bad-rubric:2:") != NULL, "and named by its line");

    path = write_file("zero-rubric", "group edge 10\ngroup tail 0\n");
    ok(mw_rubric_load(path, &r, err, sizeof err) != 0, "a group worth 0 with no reason is refused");
    ok(strstr(err, "zero-rubric:2:") != NULL && strstr(err, "comment") != NULL,
       "naming its line and asking for the comment");
    path = write_file("zero-ok", "# tail: graded by the hidden cases instead\ngroup tail 0\n"
                                 "group edge 0 # the skeleton passes it\n");
    ok(mw_rubric_load(path, &r, err, sizeof err) == 0, "a 0 with a comment above or beside loads");
    is_int(r.ngroups, 2, "both zero groups are named");
    ok(mw_rubric_names(&r, "tail") && mw_rubric_names(&r, "edge") && !mw_rubric_names(&r, "offset"),
       "mw_rubric_names: named at 0 points, not named");
    path = write_file("twice", "group edge 10\ngroup edge 5\n");
    ok(mw_rubric_load(path, &r, err, sizeof err) != 0 && strstr(err, "twice:2:") != NULL,
       "a group named twice is refused");

    path = write_file("rubric", "group edge 10\ngroup tail 15\n");
    mw_rubric_load(path, &r, err, sizeof err);
    const char *groups[] = {"edge", "masked", "tail", "below"};
    char names[128];
    is_int(mw_rubric_unnamed(&r, groups, 4, names, sizeof names), 2, "two groups unnamed");
    is_str(names, "'masked', 'below'", "listed in the cases' order");
    is_int(mw_rubric_unnamed(&r, groups, 1, names, sizeof names), 0, "none unnamed");
    is_str(names, "", "an empty list");
}

static void test_cases_file(void)
{
    mw_cases_file f;
    char err[256];
    const char *path =
        write_file("hidden.cases", "seed 777\n"
                                   "case hidden 4097 0 0 1 2 3 0 special 1 0 1.5 -0.75\n"
                                   "case hidden 2147483651 0 0 0 0 0 0 uniform 1 1 0 0\n"
                                   "case hidden 7 4099 0 0 0 0 0 logprob 1 0 0 0\n"
                                   "case hidden 7 4099 0 0 0 0 0 dominant 1 0 0 0\n");
    ok(mw_cases_file_load(path, &f, err, sizeof err) == 0, "a hidden cases file loads");
    ok(f.have_seed && f.seed == 777, "its seed");
    is_int(f.ncases, 4, "four cases");
    is_int(f.cases[2].gen, MW_GEN_LOGPROB, "the logprob generator by name");
    is_int(f.cases[3].gen, MW_GEN_DOMINANT, "the dominant generator by name");
    is_str(f.cases[0].group, "hidden", "group");
    is_int((long long)f.cases[0].dim[0], 4097, "size");
    is_int((long long)f.cases[0].offset[2], 3, "offsets");
    is_int(f.cases[0].gen, MW_GEN_SPECIAL, "generator");
    is_double(f.cases[0].arg[1], -0.75, 0, "arguments");
    is_int(f.cases[1].sampled, 1, "sampled flag");
    mw_cases_file_free(&f);
    /* Every generator word, in rng.h's order (its enum values 0 to 14). */
    static const char *const words[] = {"uniform", "special", "smallint", "neginf", "rarenan",
                                        "logprob", "dominant", "masked",  "tail",   "lone",
                                        "lonewide", "opposed", "nanthird", "overflow",
                                        "lonenan"};
    const int nwords = (int)(sizeof words / sizeof words[0]);
    char text[2048] = "seed 1\n";
    for (int w = 0; w < nwords; w++)
        snprintf(text + strlen(text), sizeof text - strlen(text),
                 "case hidden 64 0 0 0 0 0 0 %s 1 0 0 0\n", words[w]);
    path = write_file("every.cases", text);
    int by_name = mw_cases_file_load(path, &f, err, sizeof err) == 0 && f.ncases == nwords;
    for (int w = 0; by_name && w < nwords; w++)
        by_name &= f.cases[w].gen == w;
    ok(by_name, "every generator by its name, lonenan (MW_GEN_LONE_NAN = 14) the last");
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


static void test_canvas_names(void)
{
    char student[128], original[256];
    long long id = 0;
    ok(mw_canvas_parse("doe_john_12345_678901_01_naive.cu", student, sizeof student, original,
                       sizeof original, &id) == 0,
       "a Canvas download's name is recognized");
    is_str(student, "doe_john", "the student's name keeps its underscores");
    is_str(original, "01_naive.cu", "the file's own name keeps its underscores");
    is_int(id, 678901, "the attachment id");
    mw_canvas_parse("doe_john_12345_678950_01_naive-1.cu", student, sizeof student, original,
                    sizeof original, &id);
    is_str(original, "01_naive.cu", "Canvas's resubmission suffix -1 is dropped");
    mw_canvas_parse("doejohn_LATE_12345_678901_02_fast-12.cu", student, sizeof student, original,
                    sizeof original, &id);
    is_str(student, "doejohn", "a late hand-in: LATE is not part of the name");
    is_str(original, "02_fast.cu", "and a two-digit suffix is dropped");
    mw_canvas_parse("roe_1_2_hw.tar-1.gz", student, sizeof student, original, sizeof original,
                    &id);
    is_str(original, "hw.tar.gz", "the suffix before the last extension only");
    mw_canvas_parse("roe_1_2_Makefile-3", student, sizeof student, original, sizeof original,
                    &id);
    is_str(original, "Makefile", "a name without extension loses its suffix too");
    ok(mw_canvas_parse("mallory.cu", student, sizeof student, original, sizeof original, &id) != 0,
       "a plain .cu file is not a Canvas download");
    ok(mw_canvas_parse("ann_01_naive.cu", student, sizeof student, original, sizeof original,
                       &id) != 0,
       "one number is not the two ids");
    ok(mw_canvas_parse("ann_12_34_", student, sizeof student, original, sizeof original, &id) != 0,
       "no file name after the ids: not Canvas");
    ok(mw_canvas_parse("_12_34_x.cu", student, sizeof student, original, sizeof original, &id) != 0,
       "no student name: not Canvas");

    char stem[64];
    is_int(mw_archive_kind("ann.tar.gz", stem, sizeof stem), MW_ARCHIVE_TGZ, ".tar.gz");
    is_str(stem, "ann", "the student of ann.tar.gz");
    is_int(mw_archive_kind("Ben.ZIP", stem, sizeof stem), MW_ARCHIVE_ZIP, ".ZIP, any case");
    is_str(stem, "Ben", "the student of Ben.ZIP");
    is_int(mw_archive_kind("c.tgz", NULL, 0), MW_ARCHIVE_TGZ, ".tgz");
    is_int(mw_archive_kind("c.tar", NULL, 0), MW_ARCHIVE_TAR, ".tar");
    is_int(mw_archive_kind("c.cu", NULL, 0), MW_ARCHIVE_NONE, "a .cu file is no archive");
}

static void test_listings(void)
{
    mw_entry e;
    ok(mw_parse_tar_line("-rw-r--r-- 1000/1000      1234 2024-05-01 10:00 ann/01 naive.cu\n",
                         &e) == 0,
       "a tar listing line");
    is_str(e.name, "ann/01 naive.cu", "its name, spaces kept");
    is_int(e.size, 1234, "its size");
    is_int(e.type, '-', "a regular file");
    mw_parse_tar_line("lrwxrwxrwx 0/0 0 2024-05-01 10:00 ann/02_fast.cu -> /etc/passwd\n", &e);
    is_str(e.name, "ann/02_fast.cu", "a link's name, without its target");
    is_int(e.type, 'l', "a link");
    mw_parse_tar_line("hrw-r--r-- 0/0 0 2024-05-01 10:00 b.cu link to a.cu\n", &e);
    is_str(e.name, "b.cu", "a hard link's name");
    ok(mw_parse_tar_line("tar: Removing leading `/' from member names\n", &e) != 0,
       "tar's messages are not entries");
    ok(mw_parse_zipinfo_line("-rw-r--r--  3.0 unx     1234 tx defN 24-May-01 10:00 ann/01_naive.cu\n",
                             &e) == 0,
       "a zipinfo line");
    is_str(e.name, "ann/01_naive.cu", "its name");
    is_int(e.size, 1234, "its size");
    ok(mw_parse_zipinfo_line("-rw-a--     2.0 fat      512 t- defN 24-May-01 10:00 x.cu\n", &e) == 0 &&
           e.type == '-',
       "a zip made on Windows");
    mw_parse_zipinfo_line("drwxr-xr-x  3.0 unx        0 bx stor 24-May-01 10:00 ann/\n", &e);
    is_int(e.type, 'd', "a folder");
    ok(mw_parse_zipinfo_line("Archive:  ann.zip\n", &e) != 0 &&
           mw_parse_zipinfo_line("Zip file size: 596 bytes, number of entries: 4\n", &e) != 0 &&
           mw_parse_zipinfo_line("4 files, 16 bytes uncompressed, 16 bytes compressed:  0.0%\n",
                                 &e) != 0,
       "zipinfo's header and totals are not entries");

    mw_entry good = {"ann/./01_naive.cu", '-', 10};
    ok(mw_entry_refusal(&good) == NULL, "a plain relative path may be unpacked");
    mw_entry bad[] = {{"../01_naive.cu", '-', 1}, {"a/../../x", '-', 1}, {"/etc/x", '-', 1},
                      {"-d", '-', 1},             {"a*b.cu", '-', 1},   {"a\\b", '-', 1},
                      {"link", 'l', 0},           {"hard", 'h', 0},     {"fifo", 'p', 0}};
    const char *what[] = {"..", "a/../..", "an absolute path", "a name like an option",
                          "a pattern character", "a backslash", "a link", "a hard link", "a fifo"};
    for (int i = 0; i < 9; i++) {
        char name[96];
        snprintf(name, sizeof name, "refused: %s", what[i]);
        ok(mw_entry_refusal(&bad[i]) != NULL, name);
    }
    mw_entry dots = {"a/..b/c..d", '-', 1};
    ok(mw_entry_refusal(&dots) == NULL, "dots inside a name are not ..");
}

static void touch(const char *name)
{
    write_file(name, "x\n");
}

static void test_class_scan(void)
{
    mw_class c;
    char err[2048], path[256];
    snprintf(path, sizeof path, "%s/class", dir);
    mkdir(path, 0755);
    ok(mw_class_scan(path, &c, err, sizeof err) != 0 && strstr(err, "no submission") &&
           strstr(err, "Canvas"),
       "an empty folder: an error naming the layouts");
    touch("class/README.md");
    ok(mw_class_scan(path, &c, err, sizeof err) != 0 && strstr(err, "set aside: README.md"),
       "nothing gradable: the error names what was set aside");
    snprintf(path, sizeof path, "%s/class/ann", dir);
    mkdir(path, 0755);
    touch("class/ben.cu");
    touch("class/cat.tar.gz");
    touch("class/dan.zip");
    touch("class/doe_john_12345_678901_01_naive.cu");
    touch("class/doe_john_12345_678950_01_naive-1.cu");
    touch("class/doe_john_12345_678902_notes.txt");
    touch("class/.hidden.cu");
    snprintf(path, sizeof path, "%s/class", dir);
    ok(mw_class_scan(path, &c, err, sizeof err) == 0, "a mixed class is read");
    is_int(c.n, 5, "five students");
    const char *want[] = {"ann", "ben", "cat", "dan", "doe_john"};
    const mw_layout layout[] = {MW_LAYOUT_FOLDER, MW_LAYOUT_FILE, MW_LAYOUT_ARCHIVE,
                                MW_LAYOUT_ARCHIVE, MW_LAYOUT_CANVAS};
    for (int i = 0; i < 5 && i < c.n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s, a %s", want[i], mw_layout_name(layout[i]));
        ok(strcmp(c.subs[i].student, want[i]) == 0 && c.subs[i].layout == layout[i], name);
    }
    if (c.n == 5) {
        is_int(c.subs[2].archive, MW_ARCHIVE_TGZ, "cat's archive kind");
        is_int(c.subs[4].nuploads, 3, "doe_john's three files are one submission");
        int superseded = 0, kept = 0;
        for (int i = 0; i < c.subs[4].nuploads; i++) {
            const mw_upload *u = &c.subs[4].uploads[i];
            if (strcmp(u->original, "01_naive.cu") == 0)
                u->superseded ? superseded++ : kept++;
            if (strcmp(u->file, "doe_john_12345_678950_01_naive-1.cu") == 0)
                ok(!u->superseded, "the later upload of 01_naive.cu is the one taken");
        }
        ok(superseded == 1 && kept == 1, "the earlier upload is superseded");
    }
    is_int(c.nignored, 1, "README.md set aside; dot files not even that");
    mw_class_free(&c);

    touch("class/ann.zip");
    ok(mw_class_scan(path, &c, err, sizeof err) != 0 && strstr(err, "two submissions") &&
           strstr(err, "ann.zip"),
       "ann/ and ann.zip: one student twice is an error");
    mw_class_free(&c);
    snprintf(path, sizeof path, "%s/class/ben.cu", dir);
    ok(mw_class_scan(path, &c, err, sizeof err) != 0 && strstr(err, "is a file") &&
           strstr(err, "ann.tar.gz"),
       "a file given for the folder: an error naming the layouts");
    mw_class_free(&c);

    mw_notes n = {0};
    for (int i = 0; i < 40; i++)
        mw_notes_add(&n, "f", "matched no exercise");
    is_int(n.n, 40, "notes grow");
    mw_notes_free(&n);
}

static void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Whether a process of group pgrp runs (a zombie, killed and not yet
 * reaped by whoever inherited it, does not). */
static int alive_in_group(pid_t pgrp)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int alive = 0;
    while (d && !alive && (e = readdir(d))) {
        pid_t pid = (pid_t)atoi(e->d_name), ppid, group;
        char state;
        alive = pid > 0 && mw_proc_stat(pid, &state, &ppid, &group) == 0 && group == pgrp &&
                state != 'Z';
    }
    if (d)
        closedir(d);
    return alive;
}

/* A step as the batch starts one: `sh -c script` leading its own group. */
static pid_t start_group(const char *script)
{
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        execl("/bin/sh", "sh", "-c", script, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    return pid;
}

static void test_wait_groups(void)
{
    is_int(mw_wait_group(start_group("exit 3"), 10), 3, "a step's exit code");
    is_int(mw_wait_group(start_group("kill -9 $$"), 10), 128 + 9, "a step killed: 128 + the signal");
    double t0 = mw_now_s();
    is_int(mw_wait_group(start_group("sleep 30"), 0.3), -1, "a step past its limit: -1");
    ok(mw_now_s() - t0 < 10, "and it is killed then, not waited for");

    /* What a step leaves running in its group goes with it. */
    pid_t pid = start_group("sleep 30 & exit 0");
    is_int(mw_wait_group(pid, 10), 0, "a step that leaves a child running ends with its own code");
    int gone = 0;
    for (int i = 0; i < 100 && !gone; i++) {
        gone = !alive_in_group(pid);
        pause_ms(10);
    }
    ok(gone, "and nothing is left running in its group");

    /* Polled, as a batch that waits on several does. */
    pid = start_group("sleep 0.3; exit 5");
    int rc = 99, looks = 0;
    double started = mw_now_s();
    while (!mw_poll_group(pid, started, 10, &rc))
        looks++, pause_ms(20);
    ok(looks > 0 && rc == 5, "polled: running at first, then its exit code");
    pid = start_group("sleep 30");
    started = mw_now_s() - 11; /* as if started 11 s ago */
    ok(mw_poll_group(pid, started, 10, &rc) && rc == -1, "polled past its limit: killed, -1");
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    test_rubric();
    test_cases_file();
    test_outputs();
    test_canvas_names();
    test_listings();
    test_class_scan();
    test_wait_groups();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return done_testing();
}
