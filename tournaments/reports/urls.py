"""The organiser's reports pages, under an event."""

from django.urls import path

from . import views

app_name = "reports"
urlpatterns = [
    path("events/<int:event_id>/reports/", views.reports_page, name="page"),
    path("events/<int:event_id>/reports/jobs", views.jobs_partial, name="jobs"),
    path("events/<int:event_id>/reports/<int:job_id>/rerun", views.rerun, name="rerun"),
    path("events/<int:event_id>/reports/<int:job_id>/pdf", views.download, name="download"),
]
