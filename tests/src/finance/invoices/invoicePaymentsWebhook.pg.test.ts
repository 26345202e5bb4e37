import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { invoicePaymentsWebhookSuite } from "./InvoicePaymentsWebhookSuite.ts"

invoicePaymentsWebhookSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
