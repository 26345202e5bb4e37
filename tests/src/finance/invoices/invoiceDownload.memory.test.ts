import { PortsMemory } from "@svc/adapters-memory"
import { invoiceDownloadSuite } from "./InvoiceDownloadSuite.ts"

invoiceDownloadSuite("memory", PortsMemory)
