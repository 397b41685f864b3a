import type { TestApp } from "../harness.ts";

/** A signed-in multipart upload of one file (field `file`), as the panel's file inputs send it. */
export function uploadFile(
  t: Pick<TestApp, "app">,
  token: string,
  url: string,
  name: string,
  content: Buffer | string,
  type = "text/csv",
) {
  const boundary = "----ep-files";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: "POST",
    url,
    payload,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
  });
}
