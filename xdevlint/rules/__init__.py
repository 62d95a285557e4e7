"""One module per rule, named for the hazard it finds."""
