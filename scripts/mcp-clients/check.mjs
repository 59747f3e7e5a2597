// check.mjs — drives a real pybox with MCP clients nobody in this project
// wrote: the official MCP TypeScript SDK and the OpenAI Agents SDK for
// JavaScript, each over stdio (`pybox mcp`) and streamable HTTP
// (`pybox serve`, /mcp). Run by agent/serve's TestRealMCPClients:
//
//   PYBOX_BIN=/path/to/pybox PYBOX_URL=http://127.0.0.1:PORT/mcp PYBOX_TOKEN=... node check.mjs
//
// Each client: lists the tools, runs code, gets a PNG made with Pillow back
// as MCP image content, gets a resource link for a CSV (and reads it), keeps
// session state between two calls, and sees a Python error as isError.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCPServerStdio, MCPServerStreamableHttp } from '@openai/agents';

const bin = process.env.PYBOX_BIN;
const url = process.env.PYBOX_URL;
const token = process.env.PYBOX_TOKEN;
assert.ok(bin && url && token, 'set PYBOX_BIN, PYBOX_URL and PYBOX_TOKEN');
const env = { ...process.env };
const headers = { Authorization: `Bearer ${token}` };

const TOOLS = ['copy_to_sandbox', 'describe', 'execute_python', 'help', 'ls', 'read_file', 'write_file'];
const PNG_CODE = [
  'from PIL import Image, ImageDraw',
  'img = Image.new("RGB", (120, 40), "white")',
  'ImageDraw.Draw(img).text((10, 10), "203.0.113.7", fill="black")',
  'img.save("/output/ip.png")',
  'open("/output/ip.csv", "w").write("ip\\n203.0.113.7\\n")',
  'print("drawn")',
].join('\n');

const textOf = (content) => content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// check runs the conversation through call(name, args) -> {content, isError}.
async function check(label, listNames, call, readResource) {
  const names = (await listNames()).sort();
  assert.deepEqual(names, TOOLS, `${label}: tools`);

  const run = await call('execute_python', { code: PNG_CODE });
  assert.ok(!run.isError, `${label}: execute failed: ${textOf(run.content)}`);
  assert.match(textOf(run.content), /drawn/, `${label}: stdout`);
  const img = run.content.find((c) => c.type === 'image');
  assert.ok(img, `${label}: no image content in ${JSON.stringify(run.content.map((c) => c.type))}`);
  assert.equal(img.mimeType, 'image/png', `${label}: image MIME type`);
  const png = Buffer.from(img.data, 'base64');
  assert.equal(png.subarray(1, 4).toString(), 'PNG', `${label}: image is not a PNG`);
  assert.equal(png.readUInt32BE(16), 120, `${label}: PNG width`);
  const link = run.content.find((c) => c.type === 'resource_link');
  assert.ok(link && link.uri.endsWith('/output/ip.csv'), `${label}: no resource link for the CSV`);
  if (readResource) {
    const rr = await readResource(link.uri);
    assert.equal(rr.contents[0].text, 'ip\n203.0.113.7\n', `${label}: resource content`);
  }

  const set = await call('execute_python', { code: 'counter = 41', session_id: 'agent-1' });
  assert.ok(!set.isError, `${label}: session set: ${textOf(set.content)}`);
  const get = await call('execute_python', { code: 'counter + 1', session_id: 'agent-1' });
  assert.match(textOf(get.content), /\b42\b/, `${label}: session state lost: ${textOf(get.content)}`);

  const err = await call('execute_python', { code: 'open("/etc/hosts", "w")' });
  if (err.isError !== undefined) assert.equal(err.isError, true, `${label}: Python error not isError`);
  assert.match(textOf(err.content), /\/etc\/hosts/, `${label}: the refusal names the path`);
  console.log(`ok   ${label}`);
}

async function mcpSDK(label, transport) {
  const client = new Client({ name: 'pybox-check', version: '1.0.0' });
  await client.connect(transport);
  try {
    await check(
      label,
      async () => (await client.listTools()).tools.map((t) => t.name),
      (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 120000 }),
      (uri) => client.readResource({ uri }),
    );
  } finally {
    await client.close();
  }
}

async function agentsSDK(label, server) {
  await server.connect();
  try {
    await check(
      label,
      async () => (await server.listTools()).map((t) => t.name),
      async (name, args) => {
        // callTool is what an Agent gets (the content); callToolResult adds isError.
        const content = await server.callTool(name, args);
        const full = server.callToolResult ? await server.callToolResult(name, args) : undefined;
        return { content, isError: full?.isError };
      },
      null,
    );
  } finally {
    await server.close();
  }
}

await mcpSDK('@modelcontextprotocol/sdk stdio', new StdioClientTransport({ command: bin, args: ['mcp'], env, stderr: 'inherit' }));
await mcpSDK('@modelcontextprotocol/sdk streamable HTTP', new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
await agentsSDK('@openai/agents MCPServerStdio', new MCPServerStdio({ name: 'pybox', command: bin, args: ['mcp'], env, timeout: 120000 }));
await agentsSDK('@openai/agents MCPServerStreamableHttp', new MCPServerStreamableHttp({ name: 'pybox', url, requestInit: { headers }, timeout: 120000 }));
console.log('all MCP clients passed');
