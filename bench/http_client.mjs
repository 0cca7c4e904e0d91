// bench/http_client.mjs — the Node.js peer: N chat-completion calls with the
// built-in fetch against the mock server, C at a time, parsing each JSON reply.
//   node bench/http_client.mjs URL N C
const [url, n, c] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const body = JSON.stringify({ model: "bench", messages: [{ role: "user", content: "Your move? The board is the start position." }] });
let next = 0, ok = 0;
const started = performance.now();
async function worker() {
  while (next < n) {
    next++;
    const res = await fetch(url + "/v1/chat/completions", { method: "POST", headers: { "Content-Type": "application/json" }, body });
    const d = await res.json();
    if (d.choices[0].message.content === "ok") ok++;
  }
}
await Promise.all(Array.from({ length: c }, worker));
const secs = (performance.now() - started) / 1000;
console.log(`node: ${ok}/${n} calls ok in ${secs.toFixed(2)}s, ${(n / secs).toFixed(0)} calls/s`);
