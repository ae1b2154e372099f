#!/usr/bin/env python3
"""Checks the relative links of Markdown files: every [text](path#anchor) names a file that exists and, when it has an
anchor into a Markdown file, a heading of that file that GitHub turns into the anchor (lowercase; punctuation other
than hyphens, underscores and spaces dropped; spaces to hyphens; a repeated heading gets -1, -2, ...).
Usage: python3 .ci/check-md-links.py $(git ls-files "*.md")   Exit 1 when a link does not resolve.
Not run by .ci/run."""
import os, re, sys

def slug(heading):
    s = re.sub(r"<[^>]+>", "", heading).strip().lower()  # inline HTML gives no text
    s = re.sub(r'[^\w\- ]', '', s)  # \w keeps letters, digits, underscore
    return s.replace(' ', '-')

def anchors(path):
    seen, out, fence = {}, set(), False
    for line in open(path, encoding='utf-8'):
        if line.lstrip().startswith('```'):
            fence = not fence
            continue
        m = None if fence else re.match(r'(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if m:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            out.add(base if n == 0 else '%s-%d' % (base, n))
            seen[base] = n + 1
    return out

def links(path):
    fence = False
    for no, line in enumerate(open(path, encoding='utf-8'), 1):
        if line.lstrip().startswith('```'):
            fence = not fence
            continue
        if fence:
            continue
        line = re.sub(r'`[^`]*`', '', line)  # inline code is not a link
        for m in re.finditer(r'\]\(([^)\s]+)\)', line):
            yield no, m.group(1)

bad = 0
cache = {}
for f in sys.argv[1:]:
    for no, target in links(f):
        if re.match(r'[a-z]+:', target):
            continue
        path, _, anchor = target.partition('#')
        full = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(full):
            print('%s:%d: %s: no such file' % (f, no, target)); bad += 1; continue
        if anchor and full.endswith('.md'):
            if full not in cache:
                cache[full] = anchors(full)
            if anchor not in cache[full]:
                print('%s:%d: %s: no heading gives #%s' % (f, no, target, anchor)); bad += 1
print('%d broken' % bad)
sys.exit(1 if bad else 0)
