"""Files in and out: validation, presets, safe writes."""
