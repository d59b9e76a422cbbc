// Reads each WARC file named on the command line with warcio.js (Webrecorder's
// reader, independent of internal/warc) and prints one JSON object per record:
// what warcio parsed (offset and length of the record in the file, WARC header
// fields, HTTP status and payload) and the SHA-1 digests of the block and the
// payload as warcio delimits them, for the Go test to compare with the
// WARC-Block-Digest and WARC-Payload-Digest fields.
import { createReadStream } from "node:fs";
import { createHash } from "node:crypto";
import { WARCParser } from "warcio";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32(bytes) {
  let bits = 0, value = 0, out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  while (out.length % 8) out += "=";
  return out;
}

const sha1 = (b) => "sha1:" + base32(createHash("sha1").update(b).digest());

async function pass(path, parseHttp, each) {
  const parser = new WARCParser(createReadStream(path), { parseHttp });
  let i = 0;
  for await (const record of parser) {
    const offset = parser.offset;
    const body = await record.readFully(false);
    await each(i++, record, body, offset, parser.recordLength);
  }
}

for (const path of process.argv.slice(2)) {
  const out = [];
  // Pass 1: the whole block, the record's place in the file.
  await pass(path, false, (i, rec, block, offset, length) => {
    const h = rec.warcHeaders.headers;
    out.push({
      file: path,
      offset,
      length,
      type: h.get("WARC-Type"),
      id: h.get("WARC-Record-ID"),
      date: h.get("WARC-Date"),
      uri: h.get("WARC-Target-URI"),
      ip: h.get("WARC-IP-Address"),
      concurrentTo: h.get("WARC-Concurrent-To"),
      contentType: h.get("Content-Type"),
      contentLength: Number(h.get("Content-Length")),
      truncated: h.get("WARC-Truncated"),
      profile: h.get("WARC-Profile"),
      refersTo: h.get("WARC-Refers-To"),
      refersToURI: h.get("WARC-Refers-To-Target-URI"),
      filename: h.get("WARC-Filename"),
      blockDigest: h.get("WARC-Block-Digest"),
      payloadDigest: h.get("WARC-Payload-Digest"),
      blockLength: block.length,
      computedBlockDigest: sha1(block),
    });
  });
  // Pass 2: warcio's own split of HTTP records into header and payload.
  await pass(path, true, (i, rec, payload) => {
    const r = out[i];
    if (!rec.httpHeaders) return;
    r.httpStatus = rec.httpHeaders.statusCode ? String(rec.httpHeaders.statusCode) : null;
    r.httpLine = rec.httpHeaders.statusline;
    r.contentEncoding = rec.httpHeaders.headers.get("Content-Encoding");
    r.payload = Buffer.from(payload).toString("base64");
    r.computedPayloadDigest = sha1(payload);
  });
  for (const r of out) console.log(JSON.stringify(r));
}
