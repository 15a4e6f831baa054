from django.contrib import admin
from django.urls import include, path

from arena import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("games/", views.game_list, name="game-list"),
    path("games/<slug:slug>/", views.game_detail, name="game-detail"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
