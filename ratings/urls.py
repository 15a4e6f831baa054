from django.urls import path

from ratings import views

urlpatterns = [
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:game>/", views.leaderboard, name="leaderboard-game"),
    path("analysis/", views.analysis, name="analysis"),
]
