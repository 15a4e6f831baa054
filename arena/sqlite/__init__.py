"""Django's SQLite backend with one write queue per process (`base.DatabaseWrapper`)."""
