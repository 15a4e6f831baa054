"""Rating maths on plain numbers and arrays: no Django, no database, nothing of arena (import-linter holds it)."""
