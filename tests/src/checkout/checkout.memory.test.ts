import { PortsMemory } from "@svc/adapters-memory"
import { checkoutContract } from "./CheckoutContract.ts"

checkoutContract("in-memory", PortsMemory)
