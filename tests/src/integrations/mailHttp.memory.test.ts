import { PortsMemory } from "@svc/adapters-memory"
import { mailHttpSuite } from "./MailHttpSuite.ts"

mailHttpSuite("memory", PortsMemory)
