import { PortsMemory } from "@svc/adapters-memory"
import { checkoutTestHelpersSuite } from "./CheckoutTestHelpersSuite.ts"

checkoutTestHelpersSuite("memory", PortsMemory)
