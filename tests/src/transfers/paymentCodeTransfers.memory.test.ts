import { PortsMemory } from "@svc/adapters-memory"
import { paymentCodeTransfersContract } from "./PaymentCodeTransfersContract.ts"

paymentCodeTransfersContract("in-memory", PortsMemory)
