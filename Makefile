.PHONY: check bench bench-ai bot
check:
	python3 tasks.py check
bench:
	python3 tasks.py bench
bench-ai:
	python3 tasks.py bench-ai
bot:
	python3 tasks.py bot
