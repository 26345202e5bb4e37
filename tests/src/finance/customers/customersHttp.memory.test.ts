import { PortsMemory } from "@svc/adapters-memory"
import { customersHttpSuite } from "./CustomersHttpSuite.ts"

customersHttpSuite("memory", PortsMemory)
