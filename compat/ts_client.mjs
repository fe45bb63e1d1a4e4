// The TypeScript SDK against the offline server: one tool call, the answer (the 529 in the plan is retried).
import Anthropic from "@anthropic-ai/sdk";

const client = new Anthropic({ maxRetries: 2 });
const tools = [{
  name: "get_weather",
  description: "Current weather in a city. Use it for any weather question.",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
}];
const messages = [{ role: "user", content: "What's the weather in Oslo?" }];
for (let turn = 0; turn < 5; turn++) {
  const reply = await client.messages.create({ model: "claude-sonnet-5-5", max_tokens: 2000, tools, messages });
  messages.push({ role: "assistant", content: reply.content });
  if (reply.stop_reason !== "tool_use") {
    console.log(reply.content.filter((b) => b.type === "text").map((b) => b.text).join(""));
    break;
  }
  const results = reply.content.filter((b) => b.type === "tool_use").map((b) => ({
    type: "tool_result", tool_use_id: b.id, content: `Weather in ${b.input.city}: 4°C, light rain`,
  }));
  messages.push({ role: "user", content: results });
}
