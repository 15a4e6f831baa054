"""daphne's `runserver` (the site's websockets included), without daphne's own app config: that imports daphne's server,
and Twisted with it, in every process Django starts (about 0.2 s of CPU for each command, worker and test process).
Only `runserver` serves with it, and its module imports the server itself. (Not in arena/apps.py: Django takes the
only AppConfig of an app's apps.py as the app's own.)"""

from django.apps import AppConfig


class DaphneRunserver(AppConfig):
    name = "daphne"
    verbose_name = "Daphne"
