#!/usr/bin/env python
"""Django's command-line utility for Arena."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
    from arena.config import ConfigError, from_env

    try:
        from_env()
    except ConfigError as error:
        sys.exit(f"arena: configuration error: {error}")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
