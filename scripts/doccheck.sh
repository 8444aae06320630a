#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documentation's check (a host stage of scripts/test.sh; make doccheck):
#
#  links  every relative link and image in README.md and docs/*.md names a
#         file that exists, and a #anchor into a Markdown file names one of
#         its headings, slugged as GitHub does (lower case; characters other
#         than letters, digits, space, - and _ dropped; spaces to -; the
#         second heading with the same slug gets -1, the third -2). Links
#         inside code (fenced blocks, `spans`) are not links.
#  knobs  every module parameter (module_param*() in module/*.c), every
#         debugfs file created under a literal name (debugfs_create_*() in
#         module/*.c; the knob files are named after the parameters) and
#         every tracepoint (TRACE_EVENT() in module/trace.h, as
#         SYSTEM:NAME) appears in README.md or docs/*.md in backquotes, as
#         `name`; and every name in the first column of README's parameter
#         table is a module parameter.
#  tables every "<!-- doc-tables NAME -->" block in README.md and docs/*.md
#         is closed by
#         "<!-- /doc-tables NAME -->", NAME is a table that
#         scripts/doc-tables.py writes, and the block starts with the line
#         that script writes (naming the run): the measured tables are
#         written from a run's output, not typed in.
#  size   README.md has at most SKM_README_MAX_LINES (300) lines.
#  cases  every writable parameter (module_param_cb() in module/*.c) is
#         named in the guest cases that fail on a knob they do not try
#         (knobs.sh, lockdown_tuning.sh): caught here in a second, not in
#         a VM boot (a run of 2026-12-02 failed on a new knob so).
#
# Prints each problem as FILE:LINE: what, then
# "doccheck: N links, N knobs, N problems". Exit 0 only if there is none.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh disable=SC1091
. "$(dirname "$0")/lib.sh"
shopt -s nullglob

readme_max=${SKM_README_MAX_LINES:-300}

cd "$SKM_ROOT"
docs=(README.md docs/*.md)
n_links=0
n_knobs=0
n_problems=0

problem() {
	printf '%s\n' "$*"
	n_problems=$((n_problems + 1))
}

# md_links FILE: "LINE<TAB>TARGET" for each link and image in FILE, and
# for each reference definition ("[label]: target"), outside code.
md_links() {
	awk '
	/^[ \t]*(```|~~~)/ { fence = !fence; next }
	fence { next }
	{
		line = $0
		gsub(/`[^`]*`/, "", line)
		if (line ~ /^ *\[[^]]+\]:[ \t]+[^ \t]/) {
			t = line
			sub(/^ *\[[^]]+\]:[ \t]+/, "", t)
			sub(/[ \t].*$/, "", t)
			print FNR "\t" t
			next
		}
		while (match(line, /[]][(][^) \t]+/)) {
			t = substr(line, RSTART + 2, RLENGTH - 2)
			sub(/^</, "", t)
			sub(/>$/, "", t)
			print FNR "\t" t
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$1"
}

# md_anchors FILE: the anchor of each heading in FILE, one a line.
md_anchors() {
	local text slug
	local -A seen=()
	while IFS= read -r text; do
		slug=$(printf '%s' "$text" | sed -E 's/\]\([^)]*\)//g' |
			tr '[:upper:]' '[:lower:]' | LC_ALL=C sed -E 's/[^a-z0-9 _-]//g; s/ /-/g')
		[ -n "$slug" ] || continue
		if [[ -v seen[$slug] ]]; then
			seen[$slug]=$((seen[$slug] + 1))
			echo "$slug-${seen[$slug]}"
		else
			seen[$slug]=0
			echo "$slug"
		fi
	done < <(awk '
		/^[ \t]*(```|~~~)/ { fence = !fence; next }
		fence { next }
		/^#+ / {
			sub(/^#+ +/, "")
			sub(/ +#+ *$/, "")
			sub(/ +$/, "")
			print
		}' "$1")
}

# --- links
declare -A anchors_of=()
for f in "${docs[@]}"; do
	dir=$(dirname "$f")
	while IFS=$'\t' read -r lineno target; do
		case $target in
		*://* | mailto:*) continue ;;
		esac
		n_links=$((n_links + 1))
		path=${target%%#*}
		anchor=
		[[ $target != *'#'* ]] || anchor=${target#*#}
		if [ -z "$path" ]; then
			file=$f
		elif [ "$dir" = . ]; then
			file=$path
		else
			file=$dir/$path
		fi
		if [ ! -e "$file" ]; then
			problem "$f:$lineno: link $target: no file $file"
			continue
		fi
		[ -n "$anchor" ] || continue
		if [[ $file != *.md ]]; then
			problem "$f:$lineno: link $target: an anchor into a file that is not Markdown"
			continue
		fi
		[[ -v anchors_of[$file] ]] || anchors_of[$file]=$(md_anchors "$file")
		grep -qxF -- "$anchor" <<< "${anchors_of[$file]}" ||
			problem "$f:$lineno: link $target: no heading in $file has the anchor #$anchor"
	done < <(md_links "$f")
done

# --- knobs
mapfile -t params < <(sed -nE \
	's/^[[:space:]]*module_param(_cb|_named|_array|_array_named|_string|_unsafe|_named_unsafe|_hw)?\(([A-Za-z0-9_]+),.*/\2/p' \
	module/*.c | sort -u)
[ ${#params[@]} -gt 0 ] || skm_die "no module_param*() found in module/*.c"
mapfile -t dfiles < <(grep -ohE 'debugfs_create_[a-z0-9_]+\("[^"]+"' module/*.c |
	sed -E 's/^[^"]*"//; s/"$//' | sort -u)
[ ${#dfiles[@]} -gt 0 ] || skm_die "no debugfs_create_*() with a literal name in module/*.c"
system=$(sed -nE 's/^#define TRACE_SYSTEM[[:space:]]+([A-Za-z0-9_]+).*/\1/p' module/trace.h)
mapfile -t tps < <(sed -nE "s/^TRACE_EVENT\(([A-Za-z0-9_]+),.*/$system:\1/p" module/trace.h)

for name in "${params[@]}" "${dfiles[@]}" "${tps[@]}"; do
	n_knobs=$((n_knobs + 1))
	grep -qF -- "\`$name\`" "${docs[@]}" ||
		problem "module/: \`$name\` is in the code but in no doc (README.md, docs/*.md)"
done

# README's parameter table: the rows after its "| parameter |" header.
while IFS=$'\t' read -r lineno name; do
	grep -qxF -- "$name" <<< "$(printf '%s\n' "${params[@]}")" ||
		problem "README.md:$lineno: parameter \`$name\` is in the table but not in module/*.c"
done < <(awk '
	/^\| parameter \|/ { table = 1; next }
	table && !/^\|/ { table = 0 }
	table && /^\| `[^`]+`/ {
		name = $0
		sub(/^\| `/, "", name)
		sub(/`.*$/, "", name)
		print FNR "\t" name
	}' README.md)

# --- tables
mapfile -t tables < <(python3 scripts/doc-tables.py --list)
[ ${#tables[@]} -gt 0 ] || skm_die "scripts/doc-tables.py --list printed no table"
n_tables=0
while IFS=$'\t' read -r where kind name next; do
	n_tables=$((n_tables + 1))
	# a here-string, not a pipe: grep -q stops reading at the first match,
	# and under pipefail printf's SIGPIPE then fails the test at random
	grep -qxF -- "$name" <<< "$(printf '%s\n' "${tables[@]}")" ||
		problem "$where: doc-tables block $name: scripts/doc-tables.py writes no such table"
	# shellcheck disable=SC2016 # the backquotes are literal
	case $kind in
	open) [[ $next == 'Written by `scripts/doc-tables.py`'* ]] ||
		problem "$where: doc-tables block $name does not start with the line naming its run" ;;
	unclosed) problem "$where: doc-tables block $name is not closed" ;;
	esac
done < <(awk '
	function flush() { if (open != "") print where "\tunclosed\t" open "\t" }
	FNR == 1 { flush(); open = "" }
	match($0, /^<!-- doc-tables [a-z0-9_]+ -->$/) {
		flush()
		open = $3; where = FILENAME ":" FNR
		getline nxt
		print where "\topen\t" open "\t" nxt
		next
	}
	$0 == "<!-- /doc-tables " open " -->" { open = ""; next }
	END { flush() }' "${docs[@]}")
[ "$n_tables" -gt 0 ] || problem "docs/: no doc-tables block at all"

# --- cases
mapfile -t writable < <(grep -hoE 'module_param_cb\([A-Za-z0-9_]+,' module/*.c |
	sed -E 's/^module_param_cb\(//; s/,$//' | sort -u)
[ ${#writable[@]} -gt 0 ] || skm_die "no module_param_cb() found in module/*.c"
for name in "${writable[@]}"; do
	for f in scripts/guest/tests/knobs.sh scripts/guest/tests/lockdown_tuning.sh; do
		grep -qw -- "$name" "$f" ||
			problem "$f: parameter \`$name\` is never tried there (the case fails on it)"
	done
done

# --- size
lines=$(wc -l < README.md)
[ "$lines" -le "$readme_max" ] ||
	problem "README.md: $lines lines, more than $readme_max"

echo "doccheck: $n_links links, $n_knobs knobs, $n_tables tables, $n_problems problems"
if [ "$n_problems" -gt 0 ]; then
	exit 1
fi
