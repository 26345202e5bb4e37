import { PortsMemory } from "@svc/adapters-memory"
import { invoicePaymentsWebhookSuite } from "./InvoicePaymentsWebhookSuite.ts"

invoicePaymentsWebhookSuite("memory", PortsMemory)
