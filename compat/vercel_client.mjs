// The Vercel AI SDK against the offline server: generateText with two tools and stopWhen, as its docs show.
import { createAnthropic } from "@ai-sdk/anthropic";
import { generateText, stepCountIs, tool } from "ai";
import { z } from "zod";

const anthropic = createAnthropic({ baseURL: process.env.ANTHROPIC_BASE_URL, apiKey: "k" });
const weather = { warsaw: "Weather in Warsaw: 6°C, cloudy", oslo: "Weather in Oslo: 4°C, light rain" };
const { text } = await generateText({
  model: anthropic("claude-sonnet-5-5"),
  tools: {
    get_weather: tool({
      description: "Current weather in a city. Use it for any weather question.",
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => weather[city.toLowerCase()] ?? `${city}: 10°C`,
    }),
    calculate: tool({
      description: "Evaluate an arithmetic expression such as 6-4 and return the result.",
      inputSchema: z.object({ expression: z.string() }),
      execute: async ({ expression }) => String(Function(`return (${expression})`)()),
    }),
  },
  stopWhen: stepCountIs(8),
  prompt: "How much warmer is it in Warsaw than in Oslo?",
});
console.log(text);
