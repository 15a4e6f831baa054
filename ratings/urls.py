from django.urls import path

from ratings import report_views as reports
from ratings import views

urlpatterns = [
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:game>/", views.leaderboard, name="leaderboard-game"),
    path("analysis/", views.analysis, name="analysis"),
    path("glossary/", views.glossary, name="glossary"),
    path("reports/", reports.index, name="reports"),
    path("reports/<slug:paper_slug>/", reports.report_page, name="report"),
    path("reports/<slug:paper_slug>/cell/", reports.cell_matches, name="report-cell"),
]
