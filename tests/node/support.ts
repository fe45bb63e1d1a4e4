// A customer service agent in TypeScript, as public tutorials write it: three tools and a while loop.
// Usage: npx tsx support.ts "What is the status of order O2?"  (reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL)
import Anthropic from "@anthropic-ai/sdk";

const MODEL = "claude-sonnet-4-6";

const tools: Anthropic.Tool[] = [
  {
    name: "get_customer_info",
    description:
      "Retrieves customer information based on their customer ID. Returns the customer's name, email, and phone number.",
    input_schema: {
      type: "object",
      properties: { customer_id: { type: "string", description: "The unique identifier for the customer." } },
      required: ["customer_id"],
    },
  },
  {
    name: "get_order_details",
    description:
      "Retrieves the details of a specific order based on the order ID. Returns the order ID, product name, " +
      "quantity, price, and order status.",
    input_schema: {
      type: "object",
      properties: { order_id: { type: "string", description: "The unique identifier for the order." } },
      required: ["order_id"],
    },
  },
  {
    name: "cancel_order",
    description: "Cancels an order based on the provided order ID. Returns a confirmation message if the cancellation is successful.",
    input_schema: {
      type: "object",
      properties: { order_id: { type: "string", description: "The unique identifier for the order to be cancelled." } },
      required: ["order_id"],
    },
  },
];

const customers: Record<string, string> = { C1: "John Doe, john@example.com, +1-555-0100" };
const orders: Record<string, string> = { O1: "Widget A x1, $19.99, Processing", O2: "Gadget B x2, $59.98, Shipped" };

function runTool(name: string, input: Record<string, string>): [string, boolean] {
  if (name === "get_customer_info") {
    const found = customers[input.customer_id];
    return found ? [`Customer ${input.customer_id}: ${found}`, false] : [`Customer ${input.customer_id} not found`, true];
  }
  const found = orders[input.order_id];
  if (!found) return [`Order ${input.order_id} not found`, true];
  if (name === "cancel_order") return [`Order ${input.order_id} has been cancelled.`, false];
  return [`Order ${input.order_id}: ${found}`, false];
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
        const [output, isError] = runTool(block.name, block.input as Record<string, string>);
        console.log(`TOOL ${block.name} ${JSON.stringify(block.input)} -> ${output}`);
        results.push({ type: "tool_result", tool_use_id: block.id, content: output, is_error: isError });
      }
    }
    messages.push({ role: "user", content: results });
  }
  const answer = (response?.content ?? []).map((block) => (block.type === "text" ? block.text : "")).join("");
  console.log(`STOP ${response?.stop_reason} after ${turn + 1} turns`);
  console.log(`ANSWER ${answer}`);
}

main(process.argv.slice(2).join(" ")).catch((error) => {
  console.error(error);
  process.exit(1);
});
