"""The papers' reproductions as code (issue 67): each row of docs/reproductions.md is a claim of
one of the five papers and an "ours" cell made from the values a registered source (a program or
script of this repository) prints. scripts/reproductions.py runs the sources, records their values
in repro/values/ and renders the page from them; its check compares a fresh run with the recorded
values within each value's tolerance, and the page with its rendering."""
