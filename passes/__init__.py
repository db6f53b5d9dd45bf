"""Analyses and checks that span ops, and the pipelines users name with -p."""
