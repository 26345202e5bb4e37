import { PortsMemory } from "@svc/adapters-memory"
import { x402HttpSuite } from "./X402HttpSuite.ts"

x402HttpSuite("memory", PortsMemory)
