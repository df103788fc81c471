#!/usr/bin/env perl
# extract.pl: turns solutions/05-attention/03_flash_bf16.cu into host C++ for the simulator.
#
#   perl sim/extract.pl solutions/05-attention/03_flash_bf16.cu > sim_kernel.inc
#
# Keeps the device part (from `namespace {` to the host side), drops the PTX
# wrappers (sim.cpp defines them on the simulated warp), turns the kernel
# into a plain function template, and lists the configuration table's
# entries as X(name, d, is_default, Cfg<...>) lines of SIM_VARIANTS.
use strict;
use warnings;

local $/;
open my $fh, '<', $ARGV[0] or die "extract.pl: cannot read $ARGV[0]: $!\n";
my $src = <$fh>;
my $from = index($src, 'namespace {');
my $to = index($src, '/* ---- host side');
die "extract.pl: no device part (namespace { ... /* ---- host side) found\n"
    if $from < 0 || $to < $from;
my $dev = substr($src, $from, $to - $from);
my $a = index($dev, '/* ---- PTX wrappers');
my $b = index($dev, '/* ---- shared tiles');
die "extract.pl: no PTX wrapper section found\n" if $a < 0 || $b < $a;
substr($dev, $a, $b - $a) = '';
$dev =~ s/\Q__global__ void __launch_bounds__(C::THREADS, C::MINB)\E/void/g;
$dev =~ s/\Qextern __shared__ __align__(128) unsigned char smem[];\E/unsigned char *smem = sim_smem();/g;
$dev =~ s/__device__ __forceinline__/inline/g;
for my $bad ('__global__', '__shared__', 'asm(') {
    die "extract.pl: $bad left in the device part\n" if index($dev, $bad) >= 0;
}
my @table;
while ($src =~ /\{"([\w-]+)",\s*(\d+),\s*(\d),\s*launch<(Cfg<[^>]*>)>/g) {
    push @table, "    X(\"$1\", $2, $3, $4) \\";
}
die "extract.pl: no configuration table found\n" unless @table;
print join("\n", '/* generated from solutions/05-attention/03_flash_bf16.cu by sim/extract.pl: do not edit */', $dev,
           '} /* namespace */', '#define SIM_VARIANTS(X) \\', @table, ''), "\n";
