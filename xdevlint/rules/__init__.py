"""One module per rule, named for the hazard it finds, and their base (``rule.py``); they import fixes, stages, analysis and model."""
