#!/usr/bin/env bash
# The layouts make grade accepts, read without a GPU (mw-batch --list, which
# unpacks and matches every submission as grading would, and stops): a
# folder per student, a .cu file, .tar.gz and .zip archives (unpacked
# safely: no link, no absolute path, no `..`, limits on entries and size),
# a Canvas download grouped per student (latest upload of each file), and
# the files that matched no exercise. Then the errors: a folder with nothing
# gradable, a file for SUBMISSIONS, one student twice, a student's own
# folder given for the class's: exit 2, naming the layouts expected.
. tests/lib.sh

scratch=$(mktemp -d)
chmod 755 "$scratch"
trap 'rm -rf "$scratch" /tmp/mw-escape-$$.cu /tmp/mw-abs-$$.cu' EXIT
ex=exercises/01-vector-add
class=$scratch/class
src=$scratch/src
mkdir -p "$class/ann/deep" "$src/ben" "$src/eve" "$src/many" "$src/big"

# ann: a folder, an exercise file two levels down, and her notes.
cp "$ex/01_naive.cu" "$class/ann/"
cp "$ex/02_fast.cu" "$class/ann/deep/"
echo notes >"$class/ann/notes.txt"
# ben: a .tar.gz with a top folder, a README and a link named like an exercise.
cp "$ex/01_naive.cu" "$ex/02_fast.cu" "$src/ben/"
echo readme >"$src/ben/README.md"
ln -s /etc/passwd "$src/ben/link.cu"
tar -czf "$class/ben.tar.gz" -C "$src" ben
# cat: a .zip, committed (tests/data/batch-layouts/README.md).
cp tests/data/batch-layouts/cat.zip "$class/"
# doe_john: Canvas's "Download Submissions", 01_naive.cu handed in twice.
cp "$ex/01_naive.cu" "$class/doe_john_12345_678901_01_naive.cu"
cp "$ex/01_naive.cu" "$class/doe_john_12345_678950_01_naive-1.cu"
cp "$ex/02_fast.cu" "$class/doe_john_12345_678902_02_fast.cu"
echo notes >"$class/doe_john_12345_678903_notes.txt"
cp "$ex/02_fast.cu" "$class/roe_LATE_777_888_02_fast.cu"
# eve: an archive that tries to write outside the scratch folder.
echo '// escaped' >"$src/eve/escape.cu"
echo '// absolute' >"$src/eve/abs.cu"
cp "$ex/01_naive.cu" "$src/eve/"
ln -s /etc/passwd "$src/eve/02_fast.cu"
(cd "$src/eve" && tar -czf "$class/eve.tar.gz" -P \
    --transform "s,^escape.cu,../../../../tmp/mw-escape-$$.cu,;s,^abs.cu,/tmp/mw-abs-$$.cu," \
    escape.cu abs.cu 01_naive.cu 02_fast.cu 2>/dev/null)
# many: 201 files; big: 21 MB of zeros (a few KB packed).
for i in $(seq 1 201); do : >"$src/many/f$i.txt"; done
tar -czf "$class/many.tar.gz" -C "$src" many
head -c $((21 << 20)) /dev/zero >"$src/big/01_naive.cu"
tar -czf "$class/big.tar.gz" -C "$src" big
# mallory: one .cu file; and the instructor's own notes beside the class.
cp "$ex/01_naive.cu" "$class/mallory.cu"
echo '# what to expect' >"$class/EXPECTED.md"
chmod -R a+rX "$scratch"

# Its scratch folders go under the test's own root, so that another
# grading on this machine (a make grade still running) cannot pass or fail
# the check of what is left behind.
mkdir -p "$scratch/batch-scratch"
list() {
    MW_BATCH_SCRATCH=$scratch/batch-scratch build/tools/mw-batch --chapter 01-vector-add \
        --submissions "$1" --list 2>"$scratch/err"
}
out=$(list "$class")
rc=$?
diag "mw-batch --list exited $rc"
printf '%s\n' "$out" | diag
# has LINE: the listing holds this CSV line exactly.
has() { printf '%s\n' "$out" | grep -qxF -- "$1"; ok $? "$2"; }
# mentions STUDENT TEXT: a row of the student holds the text.
mentions() { printf '%s\n' "$out" | grep "^$1," | grep -qF -- "$2"; ok $? "$3"; }

head -n 1 <<<"$out" | grep -qx 'student,layout,version,file,note'
ok $? "the listing is CSV with a header"
has 'ann,folder,01_naive,01_naive.cu,' "folder: an exercise file at the top"
has 'ann,folder,02_fast,deep/02_fast.cu,' "folder: one two levels down"
has 'ann,folder,,notes.txt,matched no exercise' "folder: a file that matched no exercise is listed"
has 'ben,archive,01_naive,ben/01_naive.cu,' ".tar.gz: unpacked, its top folder searched"
has 'ben,archive,02_fast,ben/02_fast.cu,' ".tar.gz: both versions"
has 'ben,archive,,ben/README.md,matched no exercise' ".tar.gz: its README listed"
has 'ben,archive,,ben/link.cu,a link: ignored' ".tar.gz: a link is ignored, not unpacked"
if command -v unzip >/dev/null; then
    has 'cat,archive,01_naive,cat/01_naive.cu,' ".zip: unpacked with unzip"
    has 'cat,archive,,cat/link.cu,a link: ignored' ".zip: a link is ignored"
    has 'cat,archive,,cat/README.txt,matched no exercise' ".zip: its README listed"
else
    skip "unzip is not installed"
    skip "unzip is not installed"
    skip "unzip is not installed"
fi
has 'doe_john,canvas,01_naive,doe_john_12345_678950_01_naive-1.cu,' \
    "Canvas: the later upload (-1) of 01_naive.cu is taken"
has 'doe_john,canvas,02_fast,doe_john_12345_678902_02_fast.cu,' "Canvas: files grouped per student"
has 'doe_john,canvas,,doe_john_12345_678901_01_naive.cu,an earlier upload of the same file: ignored' \
    "Canvas: the earlier upload is named and ignored"
has 'doe_john,canvas,,doe_john_12345_678903_notes.txt,matched no exercise' \
    "Canvas: a file that matched no exercise, by its download name"
has 'roe,canvas,02_fast,roe_LATE_777_888_02_fast.cu,' "Canvas: a late hand-in, LATE not in the name"
has 'roe,canvas,01_naive,,not submitted' "Canvas: a version not handed in"
mentions eve "../../../../tmp/mw-escape-$$.cu,leaves the folder (..): refused" \
    "archive: an entry with .. is refused"
mentions eve "/tmp/mw-abs-$$.cu,an absolute path: refused" "archive: an absolute path is refused"
has 'eve,archive,01_naive,01_naive.cu,' "archive: its other files are still taken"
has 'eve,archive,02_fast,,not submitted' "archive: a link named like an exercise is not taken"
[ ! -e "/tmp/mw-escape-$$.cu" ] && [ ! -e "/tmp/mw-abs-$$.cu" ]
ok $? "nothing was written outside the scratch folder"
mentions many "more than 200 entries: refused" "an archive of more than 200 entries is refused"
mentions big "unpacks to 21 MB, more than 20 MB: refused" "an archive past 20 MB unpacked is refused"
has 'mallory,file,01_naive,mallory.cu,' "a .cu file stands for every version"
has 'mallory,file,02_fast,mallory.cu,' "every version"
has ',ignored,,EXPECTED.md,not a submission: set aside' "other files are set aside and named"
ok "$([ $rc -eq 2 ] && echo 0 || echo 1)" "--list exits 2 when a submission cannot be read (got $rc)"
ls -d "$scratch"/batch-scratch/mw-batch-* >/dev/null 2>&1 && leftover=1 || leftover=0
ok $leftover "no scratch folder is left behind"

# Without unzip: said per student, and the others go on.
fakebin=$scratch/bin
mkdir -p "$fakebin"
for tool in make nvcc tar gzip sh; do
    p=$(command -v $tool) && ln -s "$p" "$fakebin/$tool"
done
out=$(PATH=$fakebin list "$class")
mentions cat "unzip is not installed on this machine" "no unzip: the zip's student is told why"
has 'ann,folder,01_naive,01_naive.cu,' "no unzip: the other students are still read"

# The errors, as make grade gives them: exit 2, naming the layouts.
grade() { make -s --no-print-directory grade CH=01 SUBMISSIONS="$1" OUT="$scratch/out" 2>&1; }
mkdir -p "$scratch/empty"
out=$(grade "$scratch/empty")
printf '%s' "$out" | grep -q 'no submission in' && printf '%s' "$out" | grep -q 'Canvas' &&
    printf '%s' "$out" | grep -q 'ann.zip, ann.tar.gz'
ok $? "an empty folder: an error that names the layouts expected"
list "$scratch/empty" >/dev/null
ok "$([ $? -eq 2 ] && echo 0 || echo 1)" "and exit 2"
echo hello >"$scratch/empty/README.md"
out=$(grade "$scratch/empty")
printf '%s' "$out" | grep -q 'set aside: README.md'
ok $? "nothing gradable: the error names what was set aside"
out=$(grade "$class/mallory.cu")
printf '%s' "$out" | grep -q 'is a file, not a folder of submissions' &&
    printf '%s' "$out" | grep -q 'doe_john_12345_678901_01_naive.cu'
ok $? "SUBMISSIONS naming a file: an error that names the layouts expected"
list "$class/mallory.cu" >/dev/null
ok "$([ $? -eq 2 ] && echo 0 || echo 1)" "and exit 2"
out=$(grade "$class/ann")
printf '%s' "$out" | grep -q 'holds the exercise files themselves'
ok $? "one student's folder given for the class's is named as such"
mkdir -p "$scratch/twice/ann"
cp tests/data/batch-layouts/cat.zip "$scratch/twice/ann.zip"
out=$(grade "$scratch/twice")
printf '%s' "$out" | grep -q "two submissions for one student 'ann'"
ok $? "ann/ and ann.zip: one student twice is refused"
[ ! -e "$scratch/out" ]
ok $? "no output folder is made for a class that is refused"

done_testing
