"""Fixes: the builders rules call, applying them to a tree, and writing files; they import stages, analysis and model.

Rules only observe; when one reports, it asks a builder here for the fix (or None,
when a precondition fails and the code must be left alone). Builders see the module
only through what a rule already has (its tree and provenance), and compute the
rest (scopes, document order) lazily, for files that have something to fix.
"""
