// A tool-using agent in TypeScript, as a public tutorial would write it.
// Usage: npx tsx agent.ts "What's the weather in Oslo?"  (reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL)
import Anthropic from "@anthropic-ai/sdk";

const MODEL = "claude-sonnet-4-6";

const tools: Anthropic.Tool[] = [
  {
    name: "get_weather",
    description:
      "Get the current weather for a city. Use it whenever the user asks about weather, temperature or rain " +
      "somewhere. Returns the temperature in Celsius and the sky.",
    input_schema: {
      type: "object",
      properties: { city: { type: "string", description: "City name, e.g. Oslo" } },
      required: ["city"],
    },
  },
];

function getWeather(city: string): string {
  // A fake weather service: the same city always gets the same report.
  let sum = 0;
  for (const ch of city.toLowerCase()) sum += ch.codePointAt(0) ?? 0;
  return `${city}: ${sum % 25}°C, cloudy`;
}

async function main(question: string): Promise<void> {
  const client = new Anthropic({ baseURL: process.env.ANTHROPIC_BASE_URL });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: question }];
  let response: Anthropic.Message | undefined;
  let turn = 0;
  for (; turn < 10; turn++) {
    response = await client.messages.create({ model: MODEL, max_tokens: 1024, tools, messages });
    messages.push({ role: "assistant", content: response.content });
    if (response.stop_reason !== "tool_use") break;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of response.content) {
      if (block.type === "tool_use") {
        const input = block.input as { city: string };
        const output = getWeather(input.city);
        console.log(`TOOL ${block.name} ${JSON.stringify(input)} -> ${output}`);
        results.push({ type: "tool_result", tool_use_id: block.id, content: output });
      }
    }
    messages.push({ role: "user", content: results });
  }
  const answer = (response?.content ?? [])
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("");
  console.log(`STOP ${response?.stop_reason} after ${turn + 1} turns`);
  console.log(`ANSWER ${answer}`);
}

main(process.argv.slice(2).join(" ")).catch((error) => {
  console.error(error);
  process.exit(1);
});
