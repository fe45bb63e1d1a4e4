// The TypeScript SDK's tool loop against the offline server: a three-turn task (a fault in the plan is retried).
import Anthropic from "@anthropic-ai/sdk";

const client = new Anthropic({ maxRetries: 3 });
const weather = { warsaw: "Weather in Warsaw: 6°C, cloudy", oslo: "Weather in Oslo: 4°C, light rain" };
const tools = [
  {
    name: "get_weather",
    description: "Current weather in a city. Use it for any weather question.",
    input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  {
    name: "calculate",
    description: "Evaluate an arithmetic expression such as 6-4 and return the result.",
    input_schema: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] },
  },
];
const run = (name, input) =>
  name === "get_weather" ? weather[input.city.toLowerCase()] ?? `${input.city}: 10°C` : String(Function(`return (${input.expression})`)());
const messages = [{ role: "user", content: "How much warmer is it in Warsaw than in Oslo?" }];
for (let turn = 0; turn < 8; turn++) {
  const reply = await client.messages.create({ model: "claude-sonnet-5-5", max_tokens: 2000, tools, messages });
  messages.push({ role: "assistant", content: reply.content });
  if (reply.stop_reason !== "tool_use") {
    console.log(reply.content.filter((b) => b.type === "text").map((b) => b.text).join(""));
    break;
  }
  const results = reply.content
    .filter((b) => b.type === "tool_use")
    .map((b) => ({ type: "tool_result", tool_use_id: b.id, content: run(b.name, b.input) }));
  messages.push({ role: "user", content: results });
}
