import { PortsMemory } from "@svc/adapters-memory"
import { paymentCodesContract } from "./PaymentCodesContract.ts"

paymentCodesContract("in-memory", PortsMemory)
