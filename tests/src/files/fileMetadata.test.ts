import { assert, describe, it } from "@effect/vitest"
import { ContentType, FileName } from "@svc/domain"
import { Schema } from "effect"

const isContentType = Schema.is(ContentType)
const isFileName = Schema.is(FileName)

describe("content types (RFC 9110 media types)", () => {
  it("takes type/subtype of token characters with parameters of tokens or quoted strings", () => {
    for (const taken of [
      "application/pdf",
      "image/svg+xml",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "text/plain; charset=utf-8",
      "text/plain;charset=UTF-8",
      'text/plain; charset="utf-8"; format=flowed',
      'multipart/mixed; boundary="a b\\"c"',
      "text/plain;",
      "Text/HTML",
      `application/${"x".repeat(243)}`
    ]) {
      assert.isTrue(isContentType(taken), taken)
    }
  })

  it("refuses CR, LF and other control characters, non-ASCII, missing parts and more than 255 characters", () => {
    for (const refused of [
      "",
      "text/html\r\nX-Injected: yes",
      "text/html\nX-Injected: yes",
      "text/html\r",
      "text/plain\u0000",
      "text/plain; charset=\u0001",
      'text/plain; x="\u007f"',
      "text/plän",
      "text",
      "/plain",
      "text/",
      "text/plain/extra",
      "text /plain",
      "text/plain; charset",
      "text/plain; =utf-8",
      'text/plain; x="unterminated',
      "text/plain extra",
      `application/${"x".repeat(244)}`
    ]) {
      assert.isFalse(isContentType(refused), JSON.stringify(refused))
    }
  })
})

describe("file names (metadata, never a storage path)", () => {
  it("takes 1 to 255 characters of any script, separators and dots included", () => {
    for (const taken of ["invoice.pdf", "50% deposit.pdf", "a/b\\c.pdf", "..", "Récap été 2026.pdf", "x".repeat(255)]) {
      assert.isTrue(isFileName(taken), taken)
    }
  })

  it("refuses an empty name, more than 255 characters and control characters", () => {
    for (const refused of [
      "",
      "x".repeat(256),
      "tab\tname.txt",
      "line\nbreak.pdf",
      "nul\u0000.pdf",
      "del\u007f",
      "c1\u0085"
    ]) {
      assert.isFalse(isFileName(refused), JSON.stringify(refused))
    }
  })
})
