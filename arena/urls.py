from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from arena.api.routes import api
from arena.pages import evaluate, people, studies, tokens, uploads, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("games/", views.game_list, name="game-list"),
    path("games/<slug:slug>/", views.game_detail, name="game-detail"),
    path("play/", people.lobby, name="play"),
    path("play/opponents/", people.lobby_opponents, name="play-opponents"),
    path("play/<int:pk>/", people.play_match, name="play-match"),
    path("play/ladder/", people.ladder_start, name="ladder-start"),
    path("play/ladder/<slug:slug>/", people.ladder_climb, name="ladder-climb"),
    path("challenges/<int:pk>/accept/", people.challenge_accept_view, name="challenge-accept"),
    path("challenges/<int:pk>/cancel/", people.challenge_cancel_view, name="challenge-cancel"),
    path("accounts/signup/", people.signup, name="signup"),
    path("accounts/login/", people.login_guarded(people.PersonLoginView.as_view()), name="login"),
    path("accounts/merge-guest/", people.guest_merge_view, name="guest-merge"),
    path("accounts/tokens/", tokens.api_tokens, name="api-tokens"),
    path("agents/", views.agent_list, name="agent-list"),
    path("agents/new/", views.agent_edit, name="agent-create"),
    path("agents/upload/", uploads.program_upload, name="program-upload"),
    path("agents/upload/<int:pk>/", uploads.program_build, name="program-build"),
    path("agents/<slug:slug>/", views.agent_detail, name="agent-detail"),
    path("agents/<slug:slug>/edit/", views.agent_edit, name="agent-edit"),
    path("matches/", views.match_list_view, name="match-list"),
    path("dataset.jsonl", views.dataset_download, name="dataset-download"),
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("matches/<int:pk>/replay/", views.match_replay_fragment, name="match-replay"),
    path("decisions/<int:pk>/annotate/", views.decision_annotate, name="decision-annotate"),
    path("annotations/", views.annotation_list_view, name="annotation-list"),
    path("annotations/<int:pk>/delete/", views.annotation_delete_view, name="annotation-delete"),
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/new/", views.tournament_new, name="tournament-new"),
    path("tournaments/<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    path("tournaments/<slug:slug>/progress/", views.tournament_progress_fragment, name="tournament-progress"),
    path("evaluate/", evaluate.evaluation_list, name="evaluation-list"),
    path("studies/", studies.study_list, name="study-list"),
    path("studies/new/", studies.study_edit, name="study-new"),
    path("studies/<slug:slug>/", studies.study_entry, name="study-entry"),
    path("studies/<slug:slug>/questionnaire/", studies.study_questionnaire, name="study-questionnaire"),
    path("studies/<slug:slug>/next/", studies.study_next, name="study-next"),
    path("studies/<slug:slug>/after/", studies.study_after, name="study-after"),
    path("studies/<slug:slug>/withdraw/", studies.study_withdraw, name="study-withdraw"),
    path("studies/<slug:slug>/edit/", studies.study_edit, name="study-edit"),
    path("studies/<slug:slug>/results/", studies.study_results, name="study-results"),
    path("studies/<slug:slug>/open/", studies.study_open, name="study-open"),
    path(
        "studies/<slug:slug>/participants/<str:code>/exclude/", studies.participant_exclude_view, name="study-exclude"
    ),
    path("studies/<slug:slug>/participants/delete/", studies.participant_delete_view, name="study-delete"),
    path("studies/<slug:slug>/export.<str:fmt>", studies.study_export, name="study-export"),
    path("studies/<slug:slug>/export/<str:table>.<str:fmt>", studies.study_table, name="study-table"),
    path("api/v1/", api.urls),
    path("", include("ratings.urls")),
    path(
        "accounts/password_reset/",
        people.rate_limited("password_reset", "Too many password reset requests from here.")(
            auth_views.PasswordResetView.as_view()
        ),
        name="password_reset",
    ),  # before django.contrib.auth.urls, which holds the same path unlimited
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/login/", people.login_guarded(admin.site.login)),  # before admin.site.urls: guarded too
    path("admin/", admin.site.urls),
]
