import { PortsMemory } from "@svc/adapters-memory"
import { documentsHttpSuite } from "./DocumentsHttpSuite.ts"

documentsHttpSuite("memory", PortsMemory)
