"""Front ends: the command, the flake8 plugin and the reporters; thin shells that import the engine and below."""
