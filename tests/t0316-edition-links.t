#!/usr/bin/env bash
# t0316-edition-links.t: the student edition reads on its own. Built with
# `make dist` and unpacked, every relative markdown link and every
# backquoted repository path (`chapters/...`, `docs/...`, `tests/...`, a
# top-level `Makefile` or `README.md`) in its lessons and docs names a file
# or folder the edition holds. Paths with a placeholder (`NN`, `<name>`, a
# wildcard) and generated ones (`build/`, `dist/`) are not checked; nor is
# anything inside a ``` block (commands and their output).
#
# The instructor's docs (instructors.md, mutation-testing.md, hint-table.md,
# writing-a-chapter.md) ship too, and describe the instructor's copy: there
# a backquoted path under what the edition leaves out (solutions/,
# tests/wrong/, tests/class/, instructor/) must exist in this tree instead.
# Their links, like every link, must resolve in the edition: a link is
# something a student clicks.
. tests/lib.sh

skip_all_unless_full_tree tar gzip perl

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tarball=$scratch/memwall-student.tar.gz
out=$(MW_DIST_OUT="$tarball" make -s --no-print-directory dist 2>&1)
ok $? "make dist succeeds"
printf '%s\n' "$out" | diag
tar -xzf "$tarball" -C "$scratch"
ok $? "the edition unpacks"
edition=$scratch/memwall-student

# links.pl EDITION SOURCE LEFT_OUT FILE...: one line "FILE:LINE: what" for
# each link or path of FILE (relative to EDITION) that names nothing there.
# LEFT_OUT: space-separated prefixes whose paths are looked up in SOURCE
# instead (empty: none).
cat >"$scratch/links.pl" <<'PERL'
use strict;
use warnings;
my ($edition, $source, $left_out, @files) = @ARGV;
my @out = split ' ', $left_out;
my $top = qr{(?:chapters|exercises|solutions|grader|plots|docs|tests|instructor|results|\.ci)/};
# a/b/../c -> a/c; ./a -> a
sub norm {
    my @p;
    for (split m{/}, $_[0]) {
        next if $_ eq '' || $_ eq '.';
        if ($_ eq '..' && @p && $p[-1] ne '..') { pop @p } else { push @p, $_ }
    }
    return join '/', @p;
}
my $bad = 0;
for my $f (@files) {
    open my $fh, '<', "$edition/$f" or die "$f: $!\n";
    (my $dir = $f) =~ s{/?[^/]*$}{};
    my $fence = 0;
    while (my $line = <$fh>) {
        if ($line =~ /^\s*```/) { $fence = !$fence; next }
        next if $fence;
        while ($line =~ /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g) {
            my $t = $1;
            next if $t =~ m{^(?:[a-z][a-z0-9+.-]*:|#)}i;    # a URL, an anchor
            $t =~ s/#.*//;
            my $p = norm($dir eq '' ? $t : "$dir/$t");
            next if -e "$edition/$p";
            print "$f:$.: link ($t): no $p in the edition\n";
            $bad = 1;
        }
        while ($line =~ /`([^`\s]+)`/g) {
            my $t = $1;
            next unless $t =~ m{^(?:\./)?$top} || $t =~ m{^(?:Makefile|README\.md)$};
            next if $t =~ m{[*<>\$\{\}\[\]|?]|NN|\.\.\.|\x{2026}|\xe2\x80\xa6};
            $t =~ s{:\d+(?::\d+)?$}{};                       # file:line
            my $p = norm($t);
            my $where = (grep { index("$p/", $_) == 0 } @out) ? $source : $edition;
            next if -e "$where/$p";
            print "$f:$.: path `$t`: no $p in ",
                ($where eq $source ? 'this tree' : 'the edition'), "\n";
            $bad = 1;
        }
    }
}
exit $bad;
PERL

instructor_docs='docs/instructors.md docs/mutation-testing.md docs/hint-table.md docs/writing-a-chapter.md'
student=$(cd "$edition" && ls README.md chapters/*/README.md docs/*.md | grep -v -x -F "$(printf '%s\n' $instructor_docs)")
instr=$(cd "$edition" && ls $instructor_docs 2>/dev/null)
n=$(printf '%s\n' $student | wc -l)
ok "$([ "$n" -ge 8 ] && echo 0 || echo 1)" "$n lessons and student docs to read: $(echo $student)"

bad=$(perl "$scratch/links.pl" "$edition" "$(pwd)" '' $student)
ok $? "every link and repository path of the lessons and student docs is in the edition"
[ -n "$bad" ] && printf '%s\n' "$bad" | diag
bad=$(perl "$scratch/links.pl" "$edition" "$(pwd)" 'solutions/ tests/wrong/ tests/class/ instructor/' $instr)
ok $? "the instructor's docs: links in the edition, paths in it or in the instructor's copy"
[ -n "$bad" ] && printf '%s\n' "$bad" | diag

# The checker must be able to fail: a lesson that links to a solution, and
# names a path the edition lacks, is caught on both counts.
mkdir -p "$scratch/fake/chapters/09-t" "$scratch/fake/solutions/09-t"
printf 'See [the reference](../../solutions/09-t/01_x.cu) and `instructor/dev/09/`.\n' \
    >"$scratch/fake/chapters/09-t/README.md"
: >"$scratch/fake/solutions/09-t/01_x.cu"
mkdir -p "$scratch/fake/instructor/dev/09"
mkdir -p "$scratch/fake-edition/chapters/09-t"
cp "$scratch/fake/chapters/09-t/README.md" "$scratch/fake-edition/chapters/09-t/"
bad=$(perl "$scratch/links.pl" "$scratch/fake-edition" "$scratch/fake" '' chapters/09-t/README.md)
[ $? -eq 1 ] && [ "$(printf '%s\n' "$bad" | wc -l)" -eq 2 ]
ok $? "a link to solutions/ and a path under instructor/ are both reported"
printf '%s\n' "$bad" | diag
bad=$(perl "$scratch/links.pl" "$scratch/fake-edition" "$scratch/fake" 'solutions/ instructor/' \
    chapters/09-t/README.md)
[ $? -eq 1 ] && [ "$(printf '%s\n' "$bad" | wc -l)" -eq 1 ] &&
    printf '%s\n' "$bad" | grep -q 'link (../../solutions/09-t/01_x.cu)'
ok $? "an instructor's doc may name the instructor's copy, but not link to it"

done_testing
