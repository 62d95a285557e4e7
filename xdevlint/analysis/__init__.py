"""The knowledge below the rules: names, locations, values, provenance and lifetimes; it imports only the model."""
