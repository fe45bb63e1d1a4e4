"""What the offline model knows and reads without a tool: facts, entities, filters, titles, seats and SQL filters."""

from __future__ import annotations

from agent_core.sim import knowledge, mood, narrowing
from agent_core.sim.text import names, sql_filter, values

_CHINOOK = """
CREATE TABLE "Genre" ("GenreId" INTEGER NOT NULL, "Name" NVARCHAR(120), PRIMARY KEY ("GenreId"))
CREATE TABLE "Artist" ("ArtistId" INTEGER NOT NULL, "Name" NVARCHAR(120), PRIMARY KEY ("ArtistId"))
CREATE TABLE "Album" ("AlbumId" INTEGER NOT NULL, "Title" NVARCHAR(160) NOT NULL, "ArtistId" INTEGER NOT NULL)
CREATE TABLE "Track" ("TrackId" INTEGER NOT NULL, "Name" NVARCHAR(200) NOT NULL, "AlbumId" INTEGER,
  "GenreId" INTEGER, "Milliseconds" INTEGER NOT NULL, "UnitPrice" NUMERIC(10, 2) NOT NULL)
CREATE TABLE "Customer" ("CustomerId" INTEGER NOT NULL, "FirstName" NVARCHAR(40) NOT NULL, "Country" NVARCHAR(40))
CREATE TABLE "Invoice" ("InvoiceId" INTEGER NOT NULL, "CustomerId" INTEGER NOT NULL, "Total" NUMERIC(10, 2) NOT NULL)
"""


def test_table_facts_in_three_languages() -> None:
    assert "fruit" in str(knowledge.answer("is a tomato technically a fruit or a vegetable?", "en"))
    assert "Leonardo" in str(knowledge.answer("who painted the mona lisa", "en"))
    assert "Леонардо" in str(knowledge.answer("Кто написал Мону Лизу?", "ru"))
    assert "Salzburg" in str(knowledge.answer("Where was Mozart born?", "en"))
    assert "Зальцбург" in str(knowledge.answer("Где родился Моцарт?", "ru"))
    assert "Salzburgu" in str(knowledge.answer("Gdzie urodził się Mozart?", "pl"))
    assert "potęg" in str(knowledge.answer("Wytłumacz mi po ludzku, czym się różni mnożenie od potęgowania?", "pl"))


def test_organisations_after_joined_and_work_for() -> None:
    text = "Priya Raman joined Siemens in Munich; Tom Becker used to work for Bosch in Stuttgart."
    found = {(n, kind) for _, n, kind in names.known_entities(text)}
    assert {("Siemens", "organization"), ("Bosch", "organization"), ("Stuttgart", "location")} <= found
    assert names.company_in("Какая у google самая скачиваемая модель?") == "google"


def test_domain_filter_said_next_to_its_noun() -> None:
    assert narrowing.filter_value("только по разделу security", "domain_filter") == "security"
    assert narrowing.filter_value("only in the security domain", "domain_filter") == "security"
    assert narrowing.filter_value("w dziedzinie finance", "domain_filter") == "finance"
    assert narrowing.filter_value("only in the security domain", "query") is None


def test_send_verbs_and_titles_and_seats() -> None:
    assert "send" in mood.asked_actions("Черкни письмо моему начальнику, что я завтра на больничном")
    said = "Zmień w octo-org/webshop tytuł zgłoszenia 43 na „Tryb ciemny w aplikacji” i dorzuć mu etykietę ui"
    assert values.subject(said) == "Tryb ciemny w aplikacji"
    assert values.subject("Измени заголовок задачи 43 на «Тёмная тема»") == "Тёмная тема"
    assert values.identifier("Can you put me in 14C instead?", "confirmation_number") is None
    assert values.identifier("Can you put me in 14C instead?", "new_seat") == "14C"


def test_sql_filtered_by_a_value_of_a_joined_table() -> None:
    jazz = sql_filter.query("how many jazz tracks do we have?", _CHINOOK)
    assert jazz is not None and "JOIN Genre" in jazz and "Genre.Name = 'Jazz'" in jazz and "COUNT(*)" in jazz
    maiden = sql_filter.query("how many Iron Maiden songs have we got in the db?", _CHINOOK)
    assert maiden is not None and "JOIN Album" in maiden and "Artist.Name = 'Iron Maiden'" in maiden
    usa = sql_filter.query("Jaka jest średnia wartość faktury u klientów z USA?", _CHINOOK)
    assert usa == (
        "SELECT AVG(Invoice.Total) FROM Invoice JOIN Customer ON Invoice.CustomerId = Customer.CustomerId "
        "WHERE Customer.Country = 'USA'"
    )
    listed = "Album, Artist, Customer, Genre, Invoice, Track"
    assert sql_filter.tables_for("how many Iron Maiden songs have we got?", listed) == ["Album", "Artist", "Track"]
