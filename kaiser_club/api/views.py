from django.db.models import QuerySet
from rest_framework import serializers, viewsets

from kaiser_club.models import Club
from kaiser_club.selectors import clubs_for_user


class ClubSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "town", "default_preset"]


class ClubViewSet(viewsets.ReadOnlyModelViewSet[Club]):
    """The clubs where you hold a role."""

    serializer_class = ClubSerializer

    def get_queryset(self) -> QuerySet[Club]:
        return clubs_for_user(user=self.request.user).order_by("name")
