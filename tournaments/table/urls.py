"""The table page's addresses: ``/t/<code>/`` is what a table's QR code points at (see
``tournaments.services.tables.table_path``); the page and its endpoints live under
``/table/<id>/``, the path the table's grant cookie is scoped to."""

from django.urls import path, re_path

from . import views

app_name = "table"
urlpatterns = [
    path("t/", views.open_table, name="open"),
    path("t/<str:code>/", views.enter, name="enter"),
    path("table/sw.js", views.service_worker, name="sw"),
    path("table/<int:table_id>/", views.page, name="page"),
    path("table/<int:table_id>/board", views.board, name="board"),
    path("table/<int:table_id>/state", views.state, name="state"),
    path("table/<int:table_id>/preview", views.preview, name="preview"),
    path("table/<int:table_id>/hands", views.hands, name="hands"),
    path("table/<int:table_id>/confirm", views.confirm, name="confirm"),
    path("table/<int:table_id>/discard", views.discard, name="discard"),
    path("table/<int:table_id>/undo", views.undo, name="undo"),
    path("table/<int:table_id>/acknowledge", views.acknowledge, name="acknowledge"),
    # Below a table's page only its JSON endpoints: any other address is answered as they are.
    re_path(r"^table/[^/]+/.+$", views.no_such_endpoint),
]
