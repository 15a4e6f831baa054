"""Make, list and revoke API tokens from the shell (a token is shown once, when it is made)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from arena.models import ApiToken
from arena.record.services import ServiceError
from arena.record.tokens import api_token_create, api_token_revoke


class Command(BaseCommand):
    help = "Create, list or revoke a person's API tokens."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="A new token; printed once, never stored in clear.")
        create.add_argument("--user", required=True)
        create.add_argument("--name", default="api")
        create.add_argument("--scope", action="append", default=[], choices=ApiToken.Scope.values)
        listing = sub.add_parser("list", help="A person's tokens (prefixes only).")
        listing.add_argument("--user", required=True)
        revoke = sub.add_parser("revoke", help="Revoke a token by its prefix.")
        revoke.add_argument("--user", required=True)
        revoke.add_argument("prefix")

    def handle(self, *args, action: str, user: str, **options):
        account = get_user_model().objects.filter(username=user).first()
        if account is None:
            raise CommandError(f"No user {user!r}.")
        if action == "create":
            try:
                _record, token = api_token_create(user=account, name=options["name"], scopes=options["scope"])
            except ServiceError as error:
                raise CommandError(str(error)) from None
            self.stdout.write(token)
        elif action == "list":
            for record in account.api_tokens.all():
                state = "revoked" if record.revoked_at else "live"
                self.stdout.write(f"{record.prefix}…  {state:<7} {','.join(record.scopes) or 'read'}  {record.name}")
        else:
            record = account.api_tokens.filter(prefix=options["prefix"]).first()
            if record is None:
                raise CommandError(f"No token starting {options['prefix']!r} for {user}.")
            api_token_revoke(token=record)
            self.stdout.write(f"revoked {record.prefix}…")
