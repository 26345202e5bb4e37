import { base64DecodedSize, ContentType, FileName, InboxEmailReceived } from "@svc/domain"
import { Result, Schema } from "effect"
import { decodePart, type EventMapping, Required } from "./EventMapping.ts"

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

/** The inbound e-mail provider's message JSON (inbox). */
export const InboxMessage = Schema.Struct({
  MessageID: Required(998),
  From: Required(998),
  To: Required(998),
  Subject: Schema.optionalKey(Text(998)),
  TextBody: Schema.optionalKey(Schema.String),
  HtmlBody: Schema.optionalKey(Schema.String),
  Attachments: Schema.optionalKey(
    Schema.Array(
      Schema.Struct({
        Name: FileName,
        ContentType: ContentType,
        Content: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9+/]*={0,2}$/u, { message: "expected base64" }))
      })
    ).check(Schema.isMaxLength(50))
  )
})

/** inbox: every message is an e-mail received on one of the service's addresses. */
export const inboxEvents: EventMapping = (event) =>
  decodePart(
    InboxMessage,
    "inbox message"
  )(event.payload).pipe(
    Result.map(
      (message) =>
        new InboxEmailReceived({
          messageId: message.MessageID,
          sender: message.From,
          recipient: message.To,
          subject: message.Subject ?? "",
          textBody: message.TextBody ?? "",
          htmlBody: message.HtmlBody ?? "",
          attachments: (message.Attachments ?? []).map((a) => ({
            filename: a.Name,
            contentType: a.ContentType,
            size: base64DecodedSize(a.Content),
            content: a.Content
          }))
        })
    )
  )
