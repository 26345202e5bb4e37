import { PortsMemory } from "@svc/adapters-memory"
import { teamAdminHttpSuite } from "./TeamAdminHttpSuite.ts"

teamAdminHttpSuite("memory", PortsMemory)
