"""The pipeline's stages for one file (decode, cheap scan, metadata, traversal, positions, suppression); they import analysis and model only."""
