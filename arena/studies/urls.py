from django.urls import path

from arena.studies import views

urlpatterns = [
    path("", views.study_list, name="study-list"),
    path("new/", views.study_edit, name="study-new"),
    path("<slug:slug>/", views.study_entry, name="study-entry"),
    path("<slug:slug>/questionnaire/", views.study_questionnaire, name="study-questionnaire"),
    path("<slug:slug>/next/", views.study_next, name="study-next"),
    path("<slug:slug>/withdraw/", views.study_withdraw, name="study-withdraw"),
    path("<slug:slug>/edit/", views.study_edit, name="study-edit"),
    path("<slug:slug>/results/", views.study_results, name="study-results"),
    path("<slug:slug>/open/", views.study_open, name="study-open"),
    path("<slug:slug>/participants/<str:code>/exclude/", views.participant_exclude_view, name="study-exclude"),
    path("<slug:slug>/export.<str:fmt>", views.study_export, name="study-export"),
]
