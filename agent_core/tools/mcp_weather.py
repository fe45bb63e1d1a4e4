"""The bundled MCP server (official `mcp` SDK, stdio): the MCP quickstart's two weather tools plus lesson 16's
`weather_current`, answered from offline data, so a live MCP loop needs no network.

Run it as any MCP client would: `python -m agent_core.tools.mcp_weather` (stdin/stdout JSON-RPC). The tools have
the quickstart's names and parameters (`get_alerts(state)`, `get_forecast(latitude, longitude)`); the National
Weather Service it calls there is replaced by a few fixed alerts and forecasts."""

from __future__ import annotations

from mcp.server import MCPServer

from agent_core.tools.lookups import weather_report

server = MCPServer("weather")

# Active alerts by two-letter US state code (a stand-in for api.weather.gov/alerts/active/area/{state}).
ALERTS = {
    "CA": [("Wind Advisory", "Moderate", "Gusts up to 50 mph in the mountains and deserts until 6 PM.")],
    "TX": [("Heat Advisory", "Moderate", "Heat index values up to 108 expected this afternoon.")],
    "NY": [("Winter Storm Watch", "Severe", "Heavy snow possible; total accumulations of 8 to 12 inches.")],
}
# Forecast periods near a point, by the nearest known place (a stand-in for api.weather.gov/points/{lat},{lon}).
PLACES = {
    "Sacramento": (
        38.58,
        -121.49,
        [("Tonight", 48, "F", "5 mph NW", "Clear"), ("Tomorrow", 71, "F", "10 mph W", "Sunny")],
    ),
    "New York": (
        40.71,
        -74.01,
        [("Tonight", 30, "F", "15 mph N", "Snow likely"), ("Tomorrow", 34, "F", "10 mph N", "Snow showers")],
    ),
    "Austin": (
        30.27,
        -97.74,
        [("Tonight", 75, "F", "5 mph S", "Mostly clear"), ("Tomorrow", 98, "F", "10 mph S", "Hot and sunny")],
    ),
}


@server.tool()
def get_alerts(state: str) -> str:
    """Get weather alerts for a US state.

    Args:
        state: Two-letter US state code (e.g. CA, NY)
    """
    alerts = ALERTS.get(state.strip().upper())
    if alerts is None:
        return "No active alerts for this state."
    return "\n---\n".join(
        f"Event: {event}\nArea: {state.upper()}\nSeverity: {severity}\nDescription: {text}"
        for event, severity, text in alerts
    )


@server.tool()
def get_forecast(latitude: float, longitude: float) -> str:
    """Get weather forecast for a location.

    Args:
        latitude: Latitude of the location
        longitude: Longitude of the location
    """
    name, (lat, lon, periods) = min(
        PLACES.items(), key=lambda p: (p[1][0] - latitude) ** 2 + (p[1][1] - longitude) ** 2
    )
    if abs(lat - latitude) > 2 or abs(lon - longitude) > 2:
        return "Unable to fetch forecast data for this location."
    return "\n---\n".join(
        f"{period}:\nTemperature: {temp}°{unit}\nWind: {wind}\nForecast: {text}"
        for period, temp, unit, wind, text in periods
    )


@server.tool()
def weather_current(city: str) -> str:
    """Returns the current weather in one city: temperature in °C, conditions, humidity and wind. Use it when the
    user asks about the weather now.

    Args:
        city: City name, e.g. Oslo
    """
    return weather_report(city)


if __name__ == "__main__":
    server.run()
