import { PortsMemory } from "@svc/adapters-memory"
import { checkoutHttpSuite } from "./CheckoutHttpSuite.ts"

checkoutHttpSuite("memory", PortsMemory)
